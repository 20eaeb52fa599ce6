import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listActivityOfInstance } from '../../db/repositories/events/activity-log.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import { eventually } from '../support/eventually.js';
import { json } from '../support/http.js';
import { type Stack, startStack } from '../support/stack.js';

let env: Stack;
beforeAll(async () => {
  env = await startStack({ agents: true });
});
afterAll(() => env.close());

describe('a task round trip through a real agent', () => {
  it('provisions on the simulated hypervisor, then a power action from the Client API reaches it', async () => {
    const { hypervisor, agent } = await env.hypervisorWithAgent({ AGENT_METRICS_INTERVAL_MS: '300' });
    const instance = await env.provisionedInstance(hypervisor);
    expect((await findInstance(env.db, instance.id))?.status).toBe('running');
    expect(agent.hypervisor().instances[instance.id]?.power_state).toBe('running');

    const res = await env.power(instance.id, 'stop');
    expect(res.status).toBe(202);
    expect(res.body.attributes.status).toBe('stopping');
    const result = await env.operationResult(instance.id);
    expect(result).toEqual({ power_state: 'stopped' });
    expect((await findInstance(env.db, instance.id))?.status).toBe('stopped');
    expect(agent.hypervisor().instances[instance.id]?.power_state).toBe('stopped');

    const events = (await listActivityOfInstance(env.db, instance.id)).map((e) => e.event);
    expect(events).toEqual([
      'instance.stop.completed',
      'instance.stop.requested',
      'instance.provision.completed',
      'instance.provision.requested',
    ]);

    const tasks = await env.db
      .selectFrom('agent_tasks')
      .select(['type', 'status', 'last_sequence'])
      .where('workflow_id', '=', (await env.latestOperation(instance.id)).workflow_id)
      .execute();
    expect(tasks).toEqual([{ type: 'instance.power', status: 'completed', last_sequence: 2 }]);
  });

  it('refuses a power action the status does not allow, and one while another runs', async () => {
    const { hypervisor } = await env.hypervisorWithAgent({
      AGENT_SIM_LATENCY_MS: '{"instance.power":1500,"default":0}',
    });
    const instance = await env.provisionedInstance(hypervisor);
    expect((await env.power(instance.id, 'start')).status).toBe(409);
    expect((await env.power(instance.id, 'restart')).status).toBe(202);
    const busy = await env.power(instance.id, 'stop');
    expect(busy.status).toBe(409);
    expect(busy.body.errors[0].code).toBe('SVC-OP-409');
    await env.operationResult(instance.id);
    expect((await findInstance(env.db, instance.id))?.status).toBe('running');
  });

  it('stores metric samples sent by the agent, served by the Client API', async () => {
    const { hypervisor } = await env.hypervisorWithAgent({ AGENT_METRICS_INTERVAL_MS: '200' });
    const instance = await env.provisionedInstance(hypervisor);
    const body = await eventually(
      async () => {
        const res = await fetch(`${env.url}/api/client/cloud/${instance.id}/metrics`, {
          headers: { Authorization: `Bearer ${env.client.key}` },
        });
        const b = await json(res);
        return b.attributes.samples.length >= 2 ? b : undefined;
      },
      15_000,
      'metric samples',
    );
    expect(body.object).toBe('instance_metrics');
    const sample = body.attributes.samples[0];
    expect(body.attributes.resolution).toBe('raw');
    expect(Object.keys(sample).sort()).toEqual([
      'cpu_percent',
      'cpu_percent_max',
      'disk_read_bytes',
      'disk_write_bytes',
      'memory_used_mb',
      'net_rx_bytes',
      'net_tx_bytes',
      'sample_count',
      'sampled_at',
    ]);
  });

  it('probes a hypervisor end to end from the Application API', async () => {
    const { hypervisor } = await env.hypervisorWithAgent();
    await env.provisionedInstance(hypervisor);
    const res = await env.admin.call('POST', `/api/application/cloudsvc/hypervisors/${hypervisor.id}/probe`);
    expect(res.status).toBe(200);
    const body = res.body.attributes;
    expect(body).toMatchObject({ hypervisor_uuid: hypervisor.id, instances: 1 });
    // The probe went to the agent and back: it took time, and less than its step's timeout.
    expect(body.round_trip_ms).toBeGreaterThan(0);
    expect(body.round_trip_ms).toBeLessThan(30_000);
  });
});
