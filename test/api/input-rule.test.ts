import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * One input rule for every write: a field the route does not know is refused with 400 naming it,
 * malformed JSON with SVC-REQ-JSON, and a route that takes no body refuses one that says anything.
 * Each refusal changes nothing. (The OpenAPI test proves every documented body says so; these
 * are the routes that once ignored what they did not know.)
 */
let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

const codeOf = (reply: { body: { errors?: { code: string }[] } }) => reply.body.errors?.[0]?.code;

describe('unknown fields', () => {
  it('a power action with an unknown field is refused and the instance is not touched', async () => {
    const instance = await seed.instance(t.db, {
      userId: t.client.id,
      locationId: t.locationId,
      status: 'stopped',
    });
    const res = await t.client.call('POST', `/api/client/cloud/${instance.id}/power`, {
      action: 'start',
      force: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'SVC-REQ-400', source: { field: 'force' } });
    expect((await findInstance(t.db, instance.id))?.status).toBe('stopped');
  });

  it('an SSH key rename with an unknown field is refused and the key keeps its name', async () => {
    const created = await t.client.call('POST', '/api/client/cloud/ssh-keys', {
      name: `laptop-${randomUUID().slice(0, 6)}`,
      public_key:
        'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBvaqAz7lrs5U0pWgB8PtJpJyD7yfgrTg5MhMsNRbnVU alice@laptop',
    });
    expect(created.status).toBe(201);
    const { uuid, name } = created.body.attributes;
    const res = await t.client.call('PATCH', `/api/client/cloud/ssh-keys/${uuid}`, {
      name: 'renamed',
      public_key: 'x',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ field: 'public_key' });
    const listed = await t.client.call('GET', '/api/client/cloud/ssh-keys');
    expect(
      listed.body.data.find((k: { attributes: { uuid: string } }) => k.attributes.uuid === uuid).attributes
        .name,
    ).toBe(name);
  });

  it('a hypervisor update with an unknown field is refused and changes nothing', async () => {
    const hypervisor = await seed.hypervisor(t.db);
    const res = await t.admin.call('PATCH', `/api/application/cloudsvc/hypervisors/${hypervisor.id}`, {
      name: 'renamed',
      status: 'online',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ field: 'status' });
    expect((await findHypervisor(t.db, hypervisor.id))?.name).toBe(hypervisor.name);
  });

  it('a heartbeat and a metrics report with unknown fields are refused, at the top and inside', async () => {
    const agent = await t.agent();
    const heartbeat = {
      agent_version: '1.0.0',
      capabilities: [],
      free: { cpu_cores: 1, memory_mb: 1, disk_mb: 1 },
    };
    expect((await agent.call('POST', '/api/cloudsvc/agent/heartbeat', heartbeat)).status).toBe(200);
    const extra = await agent.call('POST', '/api/cloudsvc/agent/heartbeat', { ...heartbeat, load: 3 });
    expect(extra.status).toBe(400);
    expect(extra.body.errors[0].source).toEqual({ field: 'load' });
    const inside = await agent.call('POST', '/api/cloudsvc/agent/heartbeat', {
      ...heartbeat,
      free: { ...heartbeat.free, gpus: 2 },
    });
    expect(inside.status).toBe(400);
    expect(inside.body.errors[0].source).toEqual({ field: 'free.gpus' });
    const metrics = await agent.call('POST', '/api/cloudsvc/agent/metrics', { samples: [], period: 60 });
    expect(metrics.status).toBe(400);
    expect(metrics.body.errors[0].source).toEqual({ field: 'period' });
  });
});

describe('malformed JSON and bodies where none is taken', () => {
  it('the gateway heartbeat’s body may be left out: none or {} is answered, malformed JSON and unknown fields are refused', async () => {
    const gateway = await seed.gatewayCredential(t.db);
    const path = '/api/application/cloudsvc/console/internal/heartbeat';
    expect((await t.call(gateway, 'POST', path)).status).toBe(200);
    expect((await t.call(gateway, 'POST', path, {})).status).toBe(200);
    const malformed = await t.call(gateway, 'POST', path, '{"not json', {
      'Content-Type': 'application/json',
    });
    expect(malformed.status).toBe(400);
    expect(codeOf(malformed)).toBe('SVC-REQ-JSON');
    const fields = await t.call(gateway, 'POST', path, { verbose: true });
    expect(fields.status).toBe(400);
    expect(fields.body.errors[0]).toMatchObject({ code: 'SVC-REQ-400' });
  });

  it('a write that takes no body refuses malformed JSON before it acts, as one that takes a body does', async () => {
    const hypervisor = await seed.hypervisor(t.db);
    const path = `/api/application/cloudsvc/hypervisors/${hypervisor.id}/revoke-agent`;
    const malformed = await t.admin.call('POST', path, '{"reason":', { 'Content-Type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(codeOf(malformed)).toBe('SVC-REQ-JSON');
    expect((await findHypervisor(t.db, hypervisor.id))?.status).toBe(hypervisor.status);
    const withBody = await t.admin.call(
      'PATCH',
      `/api/application/cloudsvc/hypervisors/${hypervisor.id}`,
      '{"name":',
      {
        'Content-Type': 'application/json',
      },
    );
    expect(withBody.status).toBe(400);
    expect(codeOf(withBody)).toBe('SVC-REQ-JSON');
  });
});
