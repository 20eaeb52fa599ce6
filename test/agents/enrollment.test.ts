import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findHypervisor,
  markSilentHypervisorsUnreachable,
} from '../../db/repositories/hypervisors/hypervisors.js';
import { hypervisorMigrationFacts } from '../../db/repositories/moves/hypervisor-migration-facts.js';
import { bearer, json, jsonHeaders } from '../support/http.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let t: Stack;
let appKey: string;

beforeAll(async () => {
  t = await startStack({ config: { TRUST_PROXY_HOPS: '1', ENROLLMENT_RATE_LIMIT_PER_MINUTE: '5' } });
  appKey = t.admin.key;
});
afterAll(() => t.close());

/** Each test enrolls from its own address, so the per-IP limit of one test does not touch another. */
const fromIp = () => ({ 'X-Forwarded-For': `198.51.100.${Math.floor(Math.random() * 250) + 1}` });

async function issueToken(hypervisorId: string): Promise<string> {
  const res = await t.app.request(`/api/application/cloudsvc/hypervisors/${hypervisorId}/enrollment-token`, {
    method: 'POST',
    headers: bearer(appKey),
  });
  expect(res.status).toBe(201);
  return (await json(res)).attributes.token;
}

const enroll = (token: string, headers: Record<string, string> = fromIp()) =>
  t.app.request('/api/cloudsvc/agent/enroll', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ token, agent_version: '9.9.9' }),
  });

const heartbeat = (credential: string) =>
  t.app.request('/api/cloudsvc/agent/heartbeat', {
    method: 'POST',
    headers: jsonHeaders(credential),
    body: JSON.stringify({
      agent_version: '9.9.9',
      capabilities: ['live_migration'],
      free: { cpu_cores: 10, memory_mb: 20000, disk_mb: 30000 },
    }),
  });

describe('enrollment', () => {
  it('exchanges a token for a credential once; the hypervisor comes online', async () => {
    const hv = await seed.hypervisor(t.db);
    const token = await issueToken(hv.id);
    expect(token).toMatch(/^cse_/);

    const res = await enroll(token);
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.attributes.credential).toMatch(/^csg_/);
    expect(body.attributes.hypervisor_uuid).toBe(hv.id);
    expect(body.attributes.settings.progress_interval_ms).toBeGreaterThan(0);
    expect((await findHypervisor(t.db, hv.id))?.status).toBe('online');

    const again = await enroll(token);
    expect(again.status).toBe(401);
    expect((await json(again)).errors[0].code).toBe('SVC-ENROLL-401');
  });

  it('refuses an expired token and an unknown one', async () => {
    const hv = await seed.hypervisor(t.db);
    const token = await issueToken(hv.id);
    await t.db
      .updateTable('credentials')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('hypervisor_id', '=', hv.id)
      .where('type', '=', 'enrollment')
      .execute();
    expect((await enroll(token)).status).toBe(401);
    expect((await enroll(`cse_${randomUUID()}`)).status).toBe(401);
    expect((await findHypervisor(t.db, hv.id))?.status).toBe('pending');
  });

  it('voids an unused token when a new one is issued', async () => {
    const hv = await seed.hypervisor(t.db);
    const first = await issueToken(hv.id);
    const second = await issueToken(hv.id);
    expect((await enroll(first)).status).toBe(401);
    expect((await enroll(second)).status).toBe(201);
  });

  it('rate-limits attempts per IP with 429 and Retry-After, leaving other IPs alone', async () => {
    const ip = { 'X-Forwarded-For': '192.0.2.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await enroll(`cse_${randomUUID()}`, ip)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const limited = await enroll(`cse_${randomUUID()}`, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await json(limited)).errors[0].code).toBe('SVC-REQ-429');
    expect((await enroll(`cse_${randomUUID()}`, { 'X-Forwarded-For': '192.0.2.78' })).status).toBe(401);
  });
});

describe('heartbeat and revocation', () => {
  it('records version, capabilities and free capacity', async () => {
    const hv = await seed.hypervisor(t.db);
    const { credential } = (await json(await enroll(await issueToken(hv.id)))).attributes;
    const res = await heartbeat(credential);
    expect(res.status).toBe(200);
    expect((await json(res)).attributes.status).toBe('online');
    const shown = await json(
      await t.app.request(`/api/application/cloudsvc/hypervisors/${hv.id}`, { headers: bearer(appKey) }),
    );
    expect(shown.attributes.free).toEqual({ cpu_cores: 10, memory_mb: 20000, disk_mb: 30000 });
    expect(shown.attributes.agent.version).toBe('9.9.9');
    expect(shown.attributes.agent.reported_capabilities).toEqual(['live_migration']);
    expect(shown.attributes.agent.last_seen_at).toMatch(/Z$/);
  });

  it('uses the capabilities its agent reports, less the ones an administrator withholds', async () => {
    // Registered declaring nothing, as a new host usually is: its agent's report alone makes it a live target.
    const created = await t.app.request('/api/application/cloudsvc/hypervisors', {
      method: 'POST',
      headers: jsonHeaders(appKey),
      body: JSON.stringify({
        name: `hv-${randomUUID().slice(0, 8)}`,
        location_uuid: (await seed.location(t.db)).id,
        cpu_cores: 8,
        memory_mb: 16384,
        disk_mb: 100000,
      }),
    });
    expect(created.status).toBe(201);
    const hv = (await json(created)).attributes;
    expect(hv).toMatchObject({ capabilities: [], withheld_capabilities: [], effective_capabilities: [] });
    const liveTarget = async () =>
      (await hypervisorMigrationFacts(t.db)).find((h) => h.id === hv.uuid)?.capabilities;
    expect(await liveTarget()).toEqual([]);

    const { credential } = (await json(await enroll(await issueToken(hv.uuid)))).attributes;
    expect((await heartbeat(credential)).status).toBe(200);
    const shown = async () =>
      (
        await json(
          await t.app.request(`/api/application/cloudsvc/hypervisors/${hv.uuid}`, {
            headers: bearer(appKey),
          }),
        )
      ).attributes;
    expect((await shown()).effective_capabilities).toEqual(['live_migration']);
    expect(await liveTarget()).toEqual(['live_migration']);

    // Withheld, the capability is gone whatever the agent says; given back, it returns.
    const withhold = (list: string[]) =>
      t.app.request(`/api/application/cloudsvc/hypervisors/${hv.uuid}`, {
        method: 'PATCH',
        headers: jsonHeaders(appKey),
        body: JSON.stringify({ withheld_capabilities: list }),
      });
    expect((await withhold(['live_migration'])).status).toBe(200);
    expect((await heartbeat(credential)).status).toBe(200);
    expect(await shown()).toMatchObject({
      withheld_capabilities: ['live_migration'],
      effective_capabilities: [],
    });
    expect(await liveTarget()).toEqual([]);
    expect((await withhold([])).status).toBe(200);
    expect(await liveTarget()).toEqual(['live_migration']);
    expect((await withhold(['teleport'])).status).toBe(400);
  });

  it('revoke-agent ends the credential at once', async () => {
    const hv = await seed.hypervisor(t.db);
    const { credential } = (await json(await enroll(await issueToken(hv.id)))).attributes;
    expect((await heartbeat(credential)).status).toBe(200);
    const revoked = await t.app.request(`/api/application/cloudsvc/hypervisors/${hv.id}/revoke-agent`, {
      method: 'POST',
      headers: bearer(appKey),
    });
    expect(revoked.status).toBe(200);
    expect((await json(revoked)).attributes.status).toBe('revoked');
    expect((await heartbeat(credential)).status).toBe(401);

    // A new token brings the hypervisor back.
    const fresh = (await json(await enroll(await issueToken(hv.id)))).attributes.credential;
    expect((await json(await heartbeat(fresh))).attributes.status).toBe('online');
    expect((await heartbeat(credential)).status).toBe(401);
  });

  it('marks a hypervisor unreachable when its heartbeats stop', async () => {
    const hv = await seed.hypervisor(t.db);
    const { credential } = (await json(await enroll(await issueToken(hv.id)))).attributes;
    await heartbeat(credential);
    // Its last heartbeat is put back past the silence the sweep allows, which stays the one every
    // worker runs with: the run's other files share this database, and a shorter silence would
    // mark their agents' hypervisors unreachable too, between two of their heartbeats.
    const silence = t.config.HYPERVISOR_UNREACHABLE_AFTER_MS;
    await t.db
      .updateTable('hypervisors')
      .set({ last_seen_at: new Date(Date.now() - silence - 1_000) })
      .where('id', '=', hv.id)
      .execute();
    expect(await markSilentHypervisorsUnreachable(t.db, silence)).toContain(hv.id);
    expect((await findHypervisor(t.db, hv.id))?.status).toBe('unreachable');
    await heartbeat(credential);
    expect((await findHypervisor(t.db, hv.id))?.status).toBe('online');
  });
});
