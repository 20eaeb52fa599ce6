import { randomUUID } from 'node:crypto';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { WorkflowFailedError } from '@temporalio/client';
import { findHypervisor } from '../../../db/repositories/hypervisors.js';
import { ApiError, notFound } from '../../../domain/errors.js';
import { probeHypervisorWorkflowId } from '../../../domain/workflow-ids.js';
import type { ProbeHypervisorInput } from '../../../workflows/probe-hypervisor.js';
import type { AppEnv } from '../../context.js';
import { commonErrors, conflictResponse, jsonContent, notFoundResponse, uuidParam } from '../../schemas.js';
import { z } from '../../zod.js';

/** Long enough for a healthy agent; a silent one fails the probe instead of holding the request. */
const PROBE_TIMEOUT_MS = 15_000;

const ProbeResult = z
  .object({
    object: z.literal('hypervisor_probe'),
    attributes: z.object({
      hypervisor_uuid: z.string().uuid(),
      round_trip_ms: z
        .number()
        .int()
        .openapi({ description: 'From the task’s dispatch to its completion seen by the workflow.' }),
      instances: z.number().int(),
    }),
  })
  .openapi('HypervisorProbe');

const route = createRoute({
  method: 'post',
  path: '/hypervisors/{hypervisor}/probe',
  tags: ['Hypervisors'],
  summary: "Probe the hypervisor's agent end to end",
  description:
    'Sends the agent a task that changes nothing (`hypervisor.probe`) through the whole task path and waits up to ' +
    `${PROBE_TIMEOUT_MS / 1000} s for its answer. 409 (SVC-HV-409) when the agent does not answer in time.`,
  request: { params: uuidParam('hypervisor') },
  responses: {
    200: jsonContent(ProbeResult, 'The agent answered.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse('The agent did not answer in time (SVC-HV-409).'),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db, temporal, config } = c.get('deps');
    const hypervisor = await findHypervisor(db, c.req.valid('param').hypervisor);
    if (!hypervisor) throw notFound();
    const input: ProbeHypervisorInput = {
      hypervisorId: hypervisor.id,
      timing: { heartbeatTimeoutMs: config.AGENT_TASK_HEARTBEAT_TIMEOUT_MS },
    };
    try {
      const result = await temporal.workflow.execute('probeHypervisor', {
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        workflowId: probeHypervisorWorkflowId(hypervisor.id, randomUUID()),
        workflowExecutionTimeout: PROBE_TIMEOUT_MS,
        args: [input],
      });
      return c.json(
        { object: 'hypervisor_probe' as const, attributes: { hypervisor_uuid: hypervisor.id, ...result } },
        200,
      );
    } catch (error) {
      if (error instanceof WorkflowFailedError) {
        throw new ApiError('SVC-HV-409', {
          detail: 'The hypervisor’s agent did not answer the probe.',
          cause: error,
        });
      }
      throw new ApiError('SVC-SYS-503', { cause: error });
    }
  });
}
