import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { pruneRollups } from '../../db/repositories/metrics/metric-rollups.js';
import { pruneSamples } from '../../db/repositories/metrics/metrics.js';
import { isolatedDatabase } from '../support/database.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Metric samples are rolled up into 5-minute and 1-hour buckets as they are stored, and the
 * series endpoint reads the resolution its range calls for. Samples are sent as an agent sends
 * them (the Agent API) and read as the customer reads them (the Client API).
 */
// A database of this file's own: its prunes delete by age across every instance, and other files'
// rows dated back must neither be deleted by them nor counted in what they deleted.
const database = await isolatedDatabase();
let env: Stack;
beforeAll(async () => {
  env = await startStack({ config: { DATABASE_URL: database.url } });
});
afterAll(async () => {
  await env?.close();
  await database.drop();
});

const HOUR = 3_600_000;
/** An hour boundary well inside every retention, so a test's buckets are whole and known. */
const base = new Date(Math.floor((Date.now() - 3 * HOUR) / HOUR) * HOUR);
const at = (minutes: number) => new Date(base.getTime() + minutes * 60_000).toISOString();

async function placedInstance() {
  const hypervisor = await seed.hypervisor(env.db);
  const { token } = await createCredential(env.db, { type: 'agent', hypervisorId: hypervisor.id });
  const instance = await seed.instance(env.db, {
    userId: env.client.id,
    locationId: hypervisor.location_id,
    hypervisorId: hypervisor.id,
  });
  const send = async (samples: { minute: number; cpu: number; memory?: number; rx?: number }[]) => {
    const reply = await env.call(token, 'POST', '/api/cloudsvc/agent/metrics', {
      samples: samples.map((s) => ({
        instance_uuid: instance.id,
        sampled_at: at(s.minute),
        cpu_percent: s.cpu,
        memory_used_mb: s.memory ?? 1000,
        disk_read_bytes: 10,
        disk_write_bytes: 20,
        net_rx_bytes: s.rx ?? 100,
        net_tx_bytes: 5,
      })),
    });
    expect(reply.status).toBe(202);
    return reply.body.attributes.stored as number;
  };
  const series = async (query: string) => {
    const reply = await env.client.call('GET', `/api/client/cloud/${instance.id}/metrics?${query}`);
    expect(reply.status).toBe(200);
    return reply.body.attributes;
  };
  return { instance, send, series };
}

const range = (fromMinute: number, toMinute: number) =>
  `since=${encodeURIComponent(at(fromMinute))}&until=${encodeURIComponent(at(toMinute))}`;

describe('metric rollups', () => {
  it('averages CPU and memory and sums the bytes of each 5-minute and 1-hour bucket', async () => {
    const { send, series } = await placedInstance();
    // Minutes 0-4 fall in the first 5-minute bucket, 5 and 7 in the second; all in the first hour.
    expect(
      await send([
        { minute: 0, cpu: 10, memory: 1000 },
        { minute: 2, cpu: 30, memory: 2000 },
        { minute: 4, cpu: 20, memory: 3000 },
        { minute: 5, cpu: 80, rx: 1 },
        { minute: 7, cpu: 40, rx: 2 },
      ]),
    ).toBe(5);

    const fiveMinutes = await series(`${range(0, 10)}&resolution=5m`);
    expect(fiveMinutes.resolution).toBe('5m');
    expect(fiveMinutes.samples).toEqual([
      {
        sampled_at: at(0),
        sample_count: 3,
        cpu_percent: 20,
        cpu_percent_max: 30,
        memory_used_mb: 2000,
        disk_read_bytes: 30,
        disk_write_bytes: 60,
        net_rx_bytes: 300,
        net_tx_bytes: 15,
      },
      {
        sampled_at: at(5),
        sample_count: 2,
        cpu_percent: 60,
        cpu_percent_max: 80,
        memory_used_mb: 1000,
        disk_read_bytes: 20,
        disk_write_bytes: 40,
        net_rx_bytes: 3,
        net_tx_bytes: 10,
      },
    ]);

    const hourly = await series(`${range(0, 59)}&resolution=1h`);
    expect(hourly.resolution).toBe('1h');
    expect(hourly.samples).toHaveLength(1);
    expect(hourly.samples[0]).toMatchObject({
      sampled_at: at(0),
      sample_count: 5,
      cpu_percent: 36,
      net_rx_bytes: 303,
    });
  });

  it('counts a batch sent twice once, and a late sample in the bucket of its own time', async () => {
    const { send, series } = await placedInstance();
    const batch = [
      { minute: 10, cpu: 10 },
      { minute: 11, cpu: 20 },
    ];
    expect(await send(batch)).toBe(2);
    expect(await send(batch)).toBe(0);
    // Sent after later samples, dated in the first bucket.
    expect(await send([{ minute: 20, cpu: 90 }])).toBe(1);
    expect(await send([{ minute: 12, cpu: 60 }])).toBe(1);

    const { samples } = await series(`${range(10, 25)}&resolution=5m`);
    expect(
      samples.map((s: { sampled_at: string; sample_count: number; cpu_percent: number }) => [
        s.sampled_at,
        s.sample_count,
        s.cpu_percent,
      ]),
    ).toEqual([
      [at(10), 3, 30],
      [at(20), 1, 90],
    ]);
  });

  it('counts a sample repeated in one batch once', async () => {
    const { send, series } = await placedInstance();
    expect(
      await send([
        { minute: 40, cpu: 30 },
        { minute: 40, cpu: 30 },
        { minute: 41, cpu: 10 },
      ]),
    ).toBe(2);
    const { samples } = await series(`${range(40, 44)}&resolution=5m`);
    expect(samples).toEqual([
      expect.objectContaining({ sample_count: 2, cpu_percent: 20, cpu_percent_max: 30, net_rx_bytes: 200 }),
    ]);
  });

  it('adds batches sent at once for the same instance without losing one', async () => {
    const { send, series } = await placedInstance();
    const stored = await Promise.all(
      Array.from({ length: 8 }, (_, i) => send([{ minute: 30 + (i % 5) * 0.1 + i * 0.01, cpu: 8 }])),
    );
    expect(stored).toEqual(Array(8).fill(1));
    const { samples } = await series(`${range(30, 34)}&resolution=5m`);
    expect(samples).toHaveLength(1);
    expect(samples[0]).toMatchObject({ sample_count: 8, cpu_percent: 8, net_rx_bytes: 800 });
  });

  it('reads raw samples up to a day, 5-minute buckets up to a week, and hourly ones beyond', async () => {
    const { send, series } = await placedInstance();
    await send([
      { minute: 0, cpu: 1 },
      { minute: 1, cpu: 3 },
    ]);
    const now = Date.now();
    const window = (hours: number) =>
      `since=${encodeURIComponent(new Date(now - hours * HOUR).toISOString())}&until=${encodeURIComponent(new Date(now).toISOString())}`;

    const day = await series(window(20));
    expect(day.resolution).toBe('raw');
    expect(day.samples.map((s: { sample_count: number }) => s.sample_count)).toEqual([1, 1]);
    const week = await series(window(6 * 24));
    expect(week.resolution).toBe('5m');
    expect(week.samples).toEqual([
      expect.objectContaining({ sampled_at: at(0), sample_count: 2, cpu_percent: 2 }),
    ]);
    const month = await series(window(30 * 24));
    expect(month.resolution).toBe('1h');
    expect(month.samples).toEqual([expect.objectContaining({ sampled_at: at(0), sample_count: 2 })]);
    // The default stays the last hour of raw samples.
    expect((await series('')).resolution).toBe('raw');
  });

  it('refuses a resolution it does not keep, changing nothing', async () => {
    const { instance } = await placedInstance();
    const reply = await env.client.call('GET', `/api/client/cloud/${instance.id}/metrics?resolution=1m`);
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0].code).toBe('SVC-REQ-400');
  });

  it('keeps each resolution for its retention and no longer', async () => {
    const { instance, send, series } = await placedInstance();
    await send([{ minute: 0, cpu: 5 }]);
    const rows = (resolution: number) =>
      env.db
        .selectFrom('instance_metric_rollups')
        .select('bucket_at')
        .where('instance_id', '=', instance.id)
        .where('resolution_s', '=', resolution)
        .execute();
    // Dated three days back: past a one-day raw and 5-minute retention, inside the hourly one.
    await env.db
      .updateTable('instance_metric_rollups')
      .set({ bucket_at: new Date(Date.now() - 72 * HOUR) })
      .where('instance_id', '=', instance.id)
      .execute();
    await env.db
      .updateTable('instance_metrics')
      .set({ sampled_at: new Date(Date.now() - 72 * HOUR) })
      .where('instance_id', '=', instance.id)
      .execute();
    expect(await pruneSamples(env.db, 24)).toBeGreaterThanOrEqual(1);
    expect(await pruneRollups(env.db, '5m', 1)).toBeGreaterThanOrEqual(1);
    expect(await pruneRollups(env.db, '1h', 7)).toBe(0);
    expect(await rows(300)).toHaveLength(0);
    expect(await rows(3600)).toHaveLength(1);
    // Twice: nothing more to delete.
    expect(await pruneRollups(env.db, '5m', 1)).toBe(0);
    const { samples } = await series(`${range(-80 * 60, 0)}&resolution=1h`);
    expect(samples).toHaveLength(1);
  });
});
