import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { HeartbeatAckBody } from '../../domain/agent-protocol.js';
import { HYPERVISOR_CAPABILITIES } from '../../domain/hypervisors.js';
import { int4, text } from '../../domain/input-bounds.js';
import type { AppEnv } from '../../http/context.js';
import { acceptHeartbeat } from '../../services/agents/heartbeat.js';
import { commonErrors, jsonBody, jsonContent } from '../../wire/schemas.js';
import { component, z } from '../../wire/zod.js';
import { agentActor } from '../auth/principals.js';
import { agentSettings } from './settings.js';

const capacity = int4();

const HeartbeatRequest = z
  .strictObject({
    agent_version: text({ max: 64 }),
    capabilities: z.array(z.enum(HYPERVISOR_CAPABILITIES)).max(HYPERVISOR_CAPABILITIES.length),
    free: z.strictObject({ cpu_cores: capacity, memory_mb: capacity, disk_mb: capacity }),
  })
  .openapi('HeartbeatRequest');

const HeartbeatAck = component(HeartbeatAckBody, 'HeartbeatAck');

const route = createRoute({
  method: 'post',
  path: '/heartbeat',
  tags: ['Agent'],
  summary: 'Liveness, agent version, capabilities and free capacity',
  description:
    'Send every `settings.heartbeat_interval_ms`. A hypervisor silent for HYPERVISOR_UNREACHABLE_AFTER_MS is ' +
    'marked `unreachable` until its next heartbeat.',
  request: { body: jsonBody(HeartbeatRequest) },
  responses: { 200: jsonContent(HeartbeatAck, 'Recorded.'), ...commonErrors },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const agent = agentActor(c);
    const state = await acceptHeartbeat(c.get('deps'), agent, {
      agentVersion: body.agent_version,
      capabilities: body.capabilities,
      free: { cpuCores: body.free.cpu_cores, memoryMb: body.free.memory_mb, diskMb: body.free.disk_mb },
    });
    return c.json(
      {
        object: 'agent_heartbeat_ack' as const,
        attributes: {
          hypervisor_uuid: agent.hypervisorId,
          status: state.status,
          maintenance: state.maintenance,
          server_time: new Date().toISOString(),
          settings: agentSettings(c.get('deps').config),
        },
      },
      200,
    );
  });
}
