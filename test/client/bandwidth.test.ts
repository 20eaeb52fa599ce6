import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { billingPeriodOf } from '../../domain/networks/bandwidth.js';
import type { Body } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * Bandwidth per billing period, from the samples a hypervisor's agent reports through the Agent
 * API (sent by hand here, as an agent would), read by the customer through the Client API.
 */
let env: Stack;
beforeAll(async () => {
  env = await startStack();
});
afterAll(() => env.close());

/** An instance of the customer on a hypervisor of its own, created `monthsAgo` months ago. */
async function placedInstance(monthsAgo: number) {
  const hypervisor = await seed.hypervisor(env.db);
  const { token } = await createCredential(env.db, { type: 'agent', hypervisorId: hypervisor.id });
  const instance = await seed.instance(env.db, {
    userId: env.client.id,
    locationId: hypervisor.location_id,
    hypervisorId: hypervisor.id,
    status: 'running',
  });
  const createdAt = billingPeriodOf(new Date(), -monthsAgo).startsAt;
  await env.db
    .updateTable('instances')
    .set({ created_at: createdAt })
    .where('id', '=', instance.id)
    .execute();
  const report = (samples: { at: Date; rx: number; tx: number }[]) =>
    env.call(token, 'POST', '/api/cloudsvc/agent/metrics', {
      samples: samples.map((s) => ({
        instance_uuid: instance.id,
        sampled_at: s.at.toISOString(),
        cpu_percent: 1,
        memory_used_mb: 1,
        disk_read_bytes: 0,
        disk_write_bytes: 0,
        net_rx_bytes: s.rx,
        net_tx_bytes: s.tx,
      })),
    });
  return { id: instance.id, report };
}

const bandwidth = async (id: string): Promise<Body> => {
  const res = await env.client.call('GET', `/api/client/cloud/${id}/bandwidth`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.attributes;
};

/** Instants inside the current period, a millisecond apart, newest first. */
const now = (i: number) => new Date(Date.now() - i);
/** Instants inside last month. */
const lastMonth = (day: number) =>
  new Date(billingPeriodOf(new Date(), -1).startsAt.getTime() + day * 86_400_000);

describe('bandwidth', () => {
  it('sums each month apart, inbound and outbound; the same samples sent again count once', async () => {
    const { id, report } = await placedInstance(3);
    const batch = [
      { at: lastMonth(2), rx: 100, tx: 10 },
      { at: lastMonth(20), rx: 300, tx: 30 },
      { at: now(1), rx: 5_000_000_000, tx: 7 },
      { at: now(2), rx: 1, tx: 2 },
    ];
    for (let i = 0; i < 2; i++) expect((await report(batch)).status).toBe(202);

    const usage = await bandwidth(id);
    const current = billingPeriodOf(new Date());
    expect(usage.current).toMatchObject({
      period: current.period,
      starts_at: current.startsAt.toISOString(),
      ends_at: current.endsAt.toISOString(),
      inbound_bytes: 5_000_000_001,
      outbound_bytes: 9,
      total_bytes: 5_000_000_010,
      last_sample_at: batch[2]!.at.toISOString(),
    });
    // Created three months ago: three earlier months, the empty ones at zero.
    expect(usage.history.map((p: Body) => [p.period, p.inbound_bytes, p.outbound_bytes])).toEqual([
      [billingPeriodOf(new Date(), -1).period, 400, 40],
      [billingPeriodOf(new Date(), -2).period, 0, 0],
      [billingPeriodOf(new Date(), -3).period, 0, 0],
    ]);
  });

  it('a sample repeated in one batch counts once', async () => {
    const { id, report } = await placedInstance(0);
    const sample = { at: now(5), rx: 700, tx: 70 };
    const answer = await report([sample, sample, { at: now(6), rx: 1, tx: 1 }]);
    expect(answer.body.attributes).toEqual({ received: 3, stored: 2 });
    expect((await bandwidth(id)).current).toMatchObject({ inbound_bytes: 701, outbound_bytes: 71 });
  });

  it('two reports at once both count', async () => {
    const { id, report } = await placedInstance(0);
    const [first, second] = [now(10), now(20)];
    const answers = await Promise.all([
      report([{ at: first, rx: 1000, tx: 1 }]),
      report([{ at: second, rx: 2000, tx: 2 }]),
      report([{ at: first, rx: 1000, tx: 1 }]),
    ]);
    expect(answers.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(answers.map((r) => r.body.attributes.stored).sort()).toEqual([0, 1, 1]);
    const usage = await bandwidth(id);
    expect(usage.current).toMatchObject({ inbound_bytes: 3000, outbound_bytes: 3, total_bytes: 3003 });
    expect(usage.history).toEqual([]);
  });

  it('an instance without samples shows zeros; another customer’s or an unknown one is the standard 404', async () => {
    const { id } = await placedInstance(0);
    expect((await bandwidth(id)).current).toMatchObject({
      inbound_bytes: 0,
      outbound_bytes: 0,
      last_sample_at: null,
    });
    for (const res of [
      await env.stranger.call('GET', `/api/client/cloud/${id}/bandwidth`),
      await env.client.call('GET', `/api/client/cloud/${randomUUID()}/bandwidth`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.errors[0].code).toBe('SVC-RES-404');
    }
    expect((await env.client.call('GET', '/api/client/cloud/nope/bandwidth')).status).toBe(404);
    expect((await env.call(null, 'GET', `/api/client/cloud/${id}/bandwidth`)).status).toBe(401);
  });
});
