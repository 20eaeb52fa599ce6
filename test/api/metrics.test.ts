import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { eventually } from '../support/eventually.js';
import { sample } from '../support/metrics-text.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';

let env: Stack;

beforeAll(async () => {
  env = await startStack({ agents: true });
});
afterAll(() => env.close());

const scrape = async () => {
  const reply = await fetch(env.metricsUrl);
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return reply.text();
};

const POWER_ROUTE = '/api/client/cloud/:cloudInstance/power';

describe('GET /metrics (the API’s METRICS_PORT)', () => {
  it('serves the process, the pool and the plane, and nothing else on its port', async () => {
    const text = await scrape();
    expect(sample(text, 'cloudsvc_process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('cloudsvc_db_pool_connections{state="total"}');
    expect(sample(text, 'cloudsvc_hypervisors', { status: 'online' })).toBeGreaterThanOrEqual(0);
    expect(text).toContain('cloudsvc_migrations{state="RECOVERY_REQUIRED"}');
    expect((await fetch(env.metricsUrl.replace('/metrics', '/healthz'))).status).toBe(404);
    expect((await fetch(`${env.url}/metrics`)).status).toBe(404);
  });

  it('moves during a power action: the request by its route, the operation by kind and state', async () => {
    const { hypervisor } = await env.hypervisorWithAgent({}, { locationId: env.locationId });
    const instance = await env.provisionedInstance(hypervisor);
    const before = await scrape();
    const answer = await env.power(instance.id, 'stop');
    expect(answer.status).toBe(202);
    await env.operationResult(instance.id);
    const after = await scrape();
    const requests = { method: 'POST', route: POWER_ROUTE, status: '202' };
    expect(sample(after, 'cloudsvc_http_request_duration_seconds_count', requests)).toBe(
      sample(before, 'cloudsvc_http_request_duration_seconds_count', requests) + 1,
    );
    const stopped = { kind: 'stop', state: 'succeeded' };
    expect(sample(after, 'cloudsvc_operations', stopped)).toBe(
      sample(before, 'cloudsvc_operations', stopped) + 1,
    );
    expect(
      sample(after, 'cloudsvc_hypervisor_silence_seconds', { hypervisor: hypervisor.name }),
    ).toBeLessThan(60);
  });

  it('counts a queued agent task and its age for a hypervisor whose agent does not come', async () => {
    const silent = await seed.hypervisor(env.db, env.locationId);
    await env.db.updateTable('hypervisors').set({ status: 'online' }).where('id', '=', silent.id).execute();
    const instance = await seed.instance(env.db, {
      userId: env.client.id,
      locationId: env.locationId,
      hypervisorId: silent.id,
      status: 'running',
    });
    expect((await env.power(instance.id, 'stop')).status).toBe(202);
    await eventually(
      async () => sample(await scrape(), 'cloudsvc_agent_tasks_queued', { hypervisor: silent.name }) === 1,
      10_000,
      'the queued task counted',
    );
    const text = await scrape();
    expect(
      sample(text, 'cloudsvc_agent_task_oldest_queued_seconds', { hypervisor: silent.name }),
    ).toBeGreaterThan(0);
  });

  it('serves every metric of ours the Grafana dashboard plots', async () => {
    const text = await scrape();
    const dashboard = readFileSync(new URL('../../docker/grafana/cloudsvc.json', import.meta.url), 'utf8');
    const plotted = new Set(dashboard.match(/\bcloudsvc_[a-z0-9_]+/g));
    expect(plotted.size).toBeGreaterThan(8);
    for (const name of plotted)
      expect(text, name).toContain(`# TYPE ${name.replace(/_(bucket|count|sum)$/, '')} `);
  });

  it('counts a Temporal call that failed', async () => {
    const { hypervisor } = await env.hypervisorWithAgent({}, { locationId: env.locationId });
    const instance = await env.provisionedInstance(hypervisor);
    const before = sample(await scrape(), 'cloudsvc_temporal_client_errors_total', { call: 'start' });
    const cut = buildApp({ ...env.deps, config: { ...env.config, TEMPORAL_RPC_TIMEOUT_MS: 0 } });
    const refused = await cut.request(`/api/client/cloud/${instance.id}/power`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${env.client.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'stop' }),
    });
    expect(refused.status).toBe(503);
    expect(sample(await scrape(), 'cloudsvc_temporal_client_errors_total', { call: 'start' })).toBe(
      before + 1,
    );
  });
});
