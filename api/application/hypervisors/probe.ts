import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { PROBE_TIMEOUT_MS, probeHypervisor } from '../../../services/hypervisors/probe.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';

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
    const result = await probeHypervisor(c.get('deps'), c.req.valid('param').hypervisor);
    return c.json({ object: 'hypervisor_probe' as const, attributes: result }, 200);
  });
}
