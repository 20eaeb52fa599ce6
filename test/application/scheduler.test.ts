import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFieldRefusals } from '../support/refusals.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

const admin = (method: string, path: string, body?: unknown) =>
  t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);

/** A location with five hypervisors, each passed over for another reason or fitting, and a 2-core plan. */
async function scene() {
  const location = await seed.location(t.db);
  await seed.uniqueIpv4Pool(t.db, location.id);
  const hypervisor = async (name: string, cpu_cores: number, memory_mb: number, online = true) => {
    const { attributes } = (
      await admin('POST', '/hypervisors', {
        name: `${name}-${randomUUID().slice(0, 6)}`,
        location_uuid: location.id,
        cpu_cores,
        memory_mb,
        disk_mb: 100_000,
      })
    ).body;
    // Online is what an agent's heartbeat makes it; none runs here.
    if (online)
      await t.db
        .updateTable('hypervisors')
        .set({ status: 'online' })
        .where('id', '=', attributes.uuid)
        .execute();
    return attributes.uuid as string;
  };
  const roomy = await hypervisor('roomy', 16, 65536);
  const snug = await hypervisor('snug', 16, 8192);
  const tiny = await hypervisor('tiny', 1, 1024);
  const resting = await hypervisor('resting', 64, 131072);
  await admin('POST', `/hypervisors/${resting}/maintenance`, { enabled: true });
  const silent = await hypervisor('silent', 64, 131072, false);
  const { attributes: plan } = (
    await admin('POST', '/plans', {
      code: `plan-${randomUUID().slice(0, 8)}`,
      name: 'Two cores',
      cpu_cores: 2,
      memory_mb: 4096,
      disk_mb: 20480,
    })
  ).body;
  return { location, plan, roomy, snug, tiny, resting, silent };
}

const reservations = async () =>
  Number(
    (
      await t.db
        .selectFrom('reservations')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the scheduler dry-run of the Application API', () => {
  it('gives every hypervisor of the location its verdict and reasons, changes nothing, and an order lands on its choice', async () => {
    const s = await scene();
    const before = await reservations();
    const ask = () =>
      admin('POST', '/scheduler/dry-run', { plan_uuid: s.plan.uuid, location_uuid: s.location.id });
    const run = await ask();
    expect(run.status).toBe(200);
    const verdicts = Object.fromEntries(
      run.body.attributes.hypervisors.map(
        (h: { uuid: string; verdict: string; reasons: string[]; rank: number | null }) => [
          h.uuid,
          { verdict: h.verdict, reasons: h.reasons, rank: h.rank },
        ],
      ),
    );
    expect(run.body.attributes).toMatchObject({
      need: { cpu_cores: 2, memory_mb: 4096, disk_mb: 20480 },
      chosen_hypervisor_uuid: s.roomy,
      detail: null,
    });
    expect(verdicts).toEqual({
      [s.roomy]: { verdict: 'fits', reasons: [], rank: 1 },
      [s.snug]: { verdict: 'fits', reasons: [], rank: 2 },
      [s.tiny]: {
        verdict: 'capacity',
        reasons: ['needs 2 CPU cores, 1 free', 'needs 4096 MB of memory, 1024 free'],
        rank: null,
      },
      [s.resting]: { verdict: 'maintenance', reasons: ['in maintenance'], rank: null },
      [s.silent]: { verdict: 'offline', reasons: ['status pending'], rank: null },
    });
    // Asked again, and twice at once: the same answer, and nothing held.
    const again = await Promise.all([ask(), ask()]);
    for (const reply of again) expect(reply.body).toEqual(run.body);
    expect(await reservations()).toBe(before);

    const location = (await admin('GET', `/locations/${s.location.id}`)).body.attributes;
    const image = (await seed.catalog(t.db)).image;
    const order = await t.call(t.client, 'POST', '/api/client/cloud', {
      hostname: 'scheduled.example.test',
      plan: s.plan.code,
      image: image.code,
      location: location.code,
    });
    expect(order.status).toBe(202);
    const placed = await t.db
      .selectFrom('instances')
      .select('hypervisor_id')
      .where('id', '=', order.body.attributes.uuid)
      .executeTakeFirstOrThrow();
    expect(placed.hypervisor_id).toBe(s.roomy);
  });

  it('says what an order would be told when nothing fits', async () => {
    const location = await seed.location(t.db);
    const { attributes: plan } = (
      await admin('POST', '/plans', {
        code: `plan-${randomUUID().slice(0, 8)}`,
        name: 'x',
        cpu_cores: 1,
        memory_mb: 64,
        disk_mb: 32,
      })
    ).body;
    const run = await admin('POST', '/scheduler/dry-run', {
      plan_uuid: plan.uuid,
      location_uuid: location.id,
    });
    expect(run.body.attributes).toEqual({
      need: { cpu_cores: 1, memory_mb: 64, disk_mb: 32 },
      chosen_hypervisor_uuid: null,
      detail: `Location ${location.code} has no hypervisor.`,
      hypervisors: [],
    });
  });

  it('refuses bad input naming the field', async () => {
    const location = await seed.location(t.db);
    const { plan } = await seed.catalog(t.db);
    await expectFieldRefusals(
      (body) => admin('POST', '/scheduler/dry-run', body),
      [
        [{ plan_uuid: randomUUID(), location_uuid: location.id }, 'plan_uuid'],
        [{ plan_uuid: plan.id, location_uuid: randomUUID() }, 'location_uuid'],
        [{ plan_uuid: 'small', location_uuid: location.id }, 'plan_uuid'],
        [{ plan_uuid: plan.id }, 'location_uuid'],
      ],
    );
  });

  it('is not for customers: a client key is refused, and no key', async () => {
    expect((await t.call(t.client, 'POST', '/api/application/cloudsvc/scheduler/dry-run', {})).status).toBe(
      403,
    );
    expect((await t.call(null, 'POST', '/api/application/cloudsvc/scheduler/dry-run', {})).status).toBe(401);
  });
});
