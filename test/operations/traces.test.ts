import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { startOtlpCollector } from '../support/otlp-collector.js';
import { type Stack, startStack } from '../support/stack.js';

let collector: Awaited<ReturnType<typeof startOtlpCollector>>;
beforeAll(async () => {
  collector = await startOtlpCollector();
});
afterAll(() => collector.close());

/** A power action through the Client API, with a request id of its own, awaited to its end. */
async function stopped(t: Stack, instanceId: string) {
  const requestId = randomUUID();
  const res = await t.call(
    t.client,
    'POST',
    `/api/client/cloud/${instanceId}/power`,
    { action: 'stop' },
    {
      'X-Request-Id': requestId,
    },
  );
  expect(res.status).toBe(202);
  await t.operationResult(instanceId);
  return requestId;
}

describe('traces', { timeout: 120_000 }, () => {
  it('follow a power action from the API through its workflow and activity to the agent task and its report, one trace per request', async () => {
    const tracing = { TRACING_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url };
    const t = await startStack({ agents: true, config: tracing });
    try {
      const { hypervisor } = await t.hypervisorWithAgent(tracing);
      const instances = await Promise.all([
        t.provisionedInstance(hypervisor),
        t.provisionedInstance(hypervisor),
      ]);
      // Two at once: each request's trace holds its own steps.
      const requestIds = await Promise.all(instances.map((instance) => stopped(t, instance.id)));

      const traces = new Set<string>();
      for (const requestId of requestIds) {
        // The agent's final report, taken by the API as a child of the agent's task span, with its
        // whole lineage up to the request (each process exports in batches, up to a second late).
        const report = await eventually(
          () => {
            const root = collector.spans.find((s) => s.attributes['cloudsvc.request_id'] === requestId);
            const completed = collector.spans.find(
              (s) =>
                s.traceId === root?.traceId &&
                s.service === 'cloudsvc-api' &&
                String(s.attributes['http.route']).endsWith('/tasks/:task/completed'),
            );
            return completed && collector.lineage(completed).at(-1) === root ? completed : undefined;
          },
          20_000,
          'the completed report, linked up to the request',
        );
        const chain = collector.lineage(report).map((s) => `${s.service} ${s.name}`);
        expect(chain[0]).toMatch(/^cloudsvc-api POST .*\/tasks\/:task\/completed$/);
        expect(chain.slice(1)).toEqual(
          expect.arrayContaining([
            'cloudsvc-agent agent task instance.power',
            'cloudsvc-worker RunActivity:runAgentTask',
            'cloudsvc-worker StartActivity:runAgentTask',
            'cloudsvc-worker RunWorkflow:powerInstance',
            'cloudsvc-api StartWorkflow:powerInstance',
          ]),
        );
        // Ancestors in that order, up to the request: the API's span that carries its request id.
        const order = ['cloudsvc-agent', 'cloudsvc-worker', 'cloudsvc-api'];
        const services = chain.slice(1).map((link) => link.split(' ')[0]!);
        expect(services).toEqual([...services].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
        const root = collector.lineage(report).at(-1)!;
        expect(root.attributes['cloudsvc.request_id']).toBe(requestId);
        expect(root.parentSpanId).toBeUndefined();
        traces.add(root.traceId);
      }
      expect(traces.size).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('at TRACING_SAMPLE_RATIO=0 record no trace a request begins, and keep one a caller began and sampled', async () => {
    const tracing = {
      TRACING_ENABLED: 'true',
      TRACING_SAMPLE_RATIO: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    };
    const before = collector.spans.length;
    const t = await startStack({ agents: true, config: tracing });
    try {
      const { hypervisor } = await t.hypervisorWithAgent(tracing);
      const instance = await t.provisionedInstance(hypervisor);
      const unsampled = await stopped(t, instance.id);
      // A caller's sampled trace (a proxy's, a customer's tooling) is continued, whatever the ratio.
      const traceId = randomUUID().replaceAll('-', '');
      const res = await t.call(t.client, 'GET', `/api/client/cloud/${instance.id}`, undefined, {
        traceparent: `00-${traceId}-${'1'.repeat(16)}-01`,
      });
      expect(res.status).toBe(200);
      await eventually(
        () => collector.spans.find((s) => s.traceId === traceId && s.service === 'cloudsvc-api'),
        20_000,
        "the API's span of the caller's sampled trace",
      );
      // Past the exporters' one-second batch: nothing of the power action came.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const since = collector.spans.slice(before);
      expect(since.some((s) => s.attributes['cloudsvc.request_id'] === unsampled)).toBe(false);
      // Only the caller's trace was recorded: neither the provisioning nor the power action.
      expect(new Set(since.map((s) => s.traceId))).toEqual(new Set([traceId]));
    } finally {
      await t.close();
    }
  });

  it('are off by default: a power action exports no span and queues its task with no traceparent', async () => {
    const before = collector.spans.length;
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url };
    const t = await startStack({ agents: true, config: endpoint });
    try {
      const { hypervisor } = await t.hypervisorWithAgent(endpoint);
      const instance = await t.provisionedInstance(hypervisor);
      await stopped(t, instance.id);
      const tasks = await t.db
        .selectFrom('agent_tasks')
        .select('trace_parent')
        .where('hypervisor_id', '=', hypervisor.id)
        .execute();
      expect(tasks.length).toBeGreaterThan(0);
      expect(tasks.every((task) => task.trace_parent === null)).toBe(true);
      // Past the exporters' one-second batch: nothing came.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(collector.spans.length).toBe(before);
    } finally {
      await t.close();
    }
  });
});
