import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { AgentCredentialBody } from '../../domain/agent-protocol.js';
import { text } from '../../domain/input-bounds.js';
import { clientIp } from '../../http/client-ip.js';
import type { AppEnv } from '../../http/context.js';
import { enrollAgent } from '../../services/agents/enroll.js';
import {
  commonErrors,
  jsonBody,
  jsonContent,
  rateLimitedResponse,
  unauthenticatedBodyLimitResponse,
} from '../../wire/schemas.js';
import { component, z } from '../../wire/zod.js';
import { agentSettings } from './settings.js';

const EnrollRequest = z
  .strictObject({
    token: text({ max: 200 }).openapi({ description: 'The one-time enrollment token.' }),
    agent_version: text({ max: 64 }),
  })
  .openapi('EnrollRequest');

const AgentCredential = component(AgentCredentialBody, 'AgentCredential');

const route = createRoute({
  method: 'post',
  path: '/enroll',
  tags: ['Agent'],
  summary: 'Exchange an enrollment token for the agent credential',
  description:
    'Needs no Authorization header: the body carries the one-time token. A used, expired, revoked or unknown ' +
    'token is refused with SVC-ENROLL-401. Enrolling ends any earlier credential of the same hypervisor. ' +
    'Each client IP may fail ENROLLMENT_RATE_LIMIT_PER_MINUTE times a minute, counted across all API processes; ' +
    'a further failure from it within the minute is answered 429 with Retry-After instead of 401. A valid token ' +
    'is accepted whatever the limit, so hosts behind one address enroll while another fails. The body may be at most ' +
    'UNAUTHENTICATED_BODY_LIMIT_BYTES.',
  security: [],
  request: { body: jsonBody(EnrollRequest) },
  responses: {
    201: jsonContent(AgentCredential, 'Enrolled.'),
    ...commonErrors,
    ...unauthenticatedBodyLimitResponse,
    ...rateLimitedResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db, temporal, config } = c.get('deps');
    const body = c.req.valid('json');
    const enrolled = await enrollAgent(
      { db, temporal, config, logger: c.get('logger') },
      { token: body.token, agentVersion: body.agent_version, clientIp: clientIp(c) },
    );
    return c.json(
      {
        object: 'agent_credential' as const,
        attributes: {
          credential: enrolled.credential,
          hypervisor_uuid: enrolled.hypervisorId,
          settings: agentSettings(config),
        },
      },
      201,
    );
  });
}
