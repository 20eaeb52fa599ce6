import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessAgent, startInProcessAgent } from '../support/agents/in-process.js';
import { eventually } from '../support/eventually.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A new administrator sets up a location and sells an instance in it through HTTP only: every step
 * below is a request to the Application API, or the hypervisor's own agent started with the
 * enrollment token that API issued. Nothing is written to the database by the test.
 */
let t: Stack;
let agent: InProcessAgent | undefined;
beforeAll(async () => {
  t = await startStack({ agents: true });
});
afterAll(async () => {
  await agent?.stop();
  await t.close();
});

const admin = async (method: string, path: string, body?: unknown) => {
  const reply = await t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
  return reply.body.attributes;
};

describe('a plane set up through the Application API alone', () => {
  it('creates a location, a plan, an image and a pool, enrolls a hypervisor and sells an instance in it', async () => {
    const suffix = randomUUID().slice(0, 8);
    const location = await admin('POST', '/locations', { code: `new-${suffix}`, name: 'New location' });
    const plan = await admin('POST', '/plans', {
      code: `starter-${suffix}`,
      name: 'Starter',
      cpu_cores: 1,
      memory_mb: 1024,
      disk_mb: 20480,
    });
    const image = await admin('POST', '/images', {
      code: `debian-${suffix}`,
      name: 'Debian 12',
      os_family: 'debian',
      min_disk_mb: 2048,
    });
    const [b] = randomBytes(1);
    await admin('POST', '/ip-pools', {
      location_uuid: location.uuid,
      name: 'public v4',
      cidr: `100.64.${b}.0/24`,
      gateway: `100.64.${b}.1`,
    });
    const hypervisor = await admin('POST', '/hypervisors', {
      name: `hv-${suffix}`,
      location_uuid: location.uuid,
      cpu_cores: 8,
      memory_mb: 16384,
      disk_mb: 204800,
    });
    const { token } = await admin('POST', `/hypervisors/${hypervisor.uuid}/enrollment-token`);
    agent = startInProcessAgent({
      AGENT_PANEL_URL: t.url,
      AGENT_ENROLLMENT_TOKEN: token,
      AGENT_SIM_LATENCY_MS: '{"default":0}',
    });
    await eventually(
      async () => (await admin('GET', `/hypervisors/${hypervisor.uuid}`)).status === 'online',
      30_000,
      'the hypervisor online',
    );

    const user = await admin('POST', '/users', { email: `buyer-${suffix}@example.test`, name: 'Buyer' });
    const key = await admin('POST', `/users/${user.uuid}/keys`, { type: 'client', label: 'first key' });
    const customer = (method: string, path: string, body?: unknown) =>
      t.call(key.token, method, `/api/client/cloud${path}`, body);

    // The customer finds what to order by its codes, as they would.
    const codes = async (path: string) =>
      (await customer('GET', `${path}?per_page=100`)).body.data.map(
        (d: { attributes: { code: string } }) => d.attributes.code,
      );
    expect(await codes('/locations')).toContain(location.code);
    expect(await codes('/plans')).toContain(plan.code);
    const order = await customer('POST', '/', {
      hostname: 'first.example.test',
      plan: plan.code,
      image: image.code,
      location: location.code,
    });
    expect(order.status).toBe(202);
    const id = order.body.attributes.uuid;
    const running = await eventually(
      async () => {
        const shown = (await customer('GET', `/${id}`)).body.attributes;
        return shown.status === 'running' ? shown : undefined;
      },
      30_000,
      'the instance running',
    );
    expect(running.primary_ipv4).toBe(`100.64.${b}.2`);
    expect(agent.hypervisor().instances[id]?.power_state).toBe('running');
    const pools = (
      await t.call(t.admin, 'GET', `/api/application/cloudsvc/ip-pools?location_uuid=${location.uuid}`)
    ).body;
    expect(pools.data[0].attributes).toMatchObject({ addresses_assigned: 1 });
  });
});
