import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import {
  consumeEnrollmentToken,
  insertCredential,
  revokeHypervisorCredentials,
} from '../../db/repositories/credentials.js';
import { markEnrolled } from '../../db/repositories/hypervisors.js';
import { refundRateLimitHit } from '../../db/repositories/rate-limits.js';
import { hashToken, issueSecret } from '../../domain/credentials.js';
import { ApiError } from '../../domain/errors.js';
import { text } from '../../domain/input-bounds.js';
import { clientIp } from '../client-ip.js';
import type { AppEnv } from '../context.js';
import { enforceRateLimit } from '../rate-limit.js';
import {
  commonErrors,
  jsonBody,
  jsonContent,
  rateLimitedResponse,
  unauthenticatedBodyLimitResponse,
} from '../schemas.js';
import { z } from '../zod.js';
import { AgentSettings, agentSettings } from './settings.js';

const EnrollRequest = z
  .object({
    token: text({ max: 200 }).openapi({ description: 'The one-time enrollment token.' }),
    agent_version: text({ max: 64 }),
  })
  .openapi('EnrollRequest');

const AgentCredential = z
  .object({
    object: z.literal('agent_credential'),
    attributes: z.object({
      credential: z
        .string()
        .openapi({ description: 'The agent credential, shown once. Send it as a Bearer token.' }),
      hypervisor_uuid: z.string().uuid(),
      settings: AgentSettings,
    }),
  })
  .openapi('AgentCredential');

const route = createRoute({
  method: 'post',
  path: '/enroll',
  tags: ['Agent'],
  summary: 'Exchange an enrollment token for the agent credential',
  description:
    'Needs no Authorization header: the body carries the one-time token. A used, expired, revoked or unknown ' +
    'token is refused with SVC-ENROLL-401. Enrolling ends any earlier credential of the same hypervisor. ' +
    'Each client IP may fail ENROLLMENT_RATE_LIMIT_PER_MINUTE times a minute, counted across all API processes ' +
    '(429 with Retry-After beyond; a successful enrollment does not count). The body may be at most ' +
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
    const { db, config } = c.get('deps');
    const body = c.req.valid('json');
    // Counted before the token is looked at, so concurrent guesses cannot all slip under the
    // limit; an enrollment that succeeds gives its hit back, so a fleet of agents enrolling from
    // one address is limited only by its failures.
    const limitKey = `enroll:${clientIp(c)}`;
    await enforceRateLimit(db, {
      key: limitKey,
      limit: config.ENROLLMENT_RATE_LIMIT_PER_MINUTE,
      windowMs: 60_000,
    });
    const secret = issueSecret('agent');
    const hypervisorId = await db.transaction().execute(async (trx) => {
      const spent = await consumeEnrollmentToken(trx, hashToken(body.token));
      if (!spent) return undefined;
      await revokeHypervisorCredentials(trx, spent.hypervisorId);
      await insertCredential(trx, {
        type: 'agent',
        tokenHash: secret.hash,
        hint: secret.hint,
        hypervisorId: spent.hypervisorId,
      });
      await markEnrolled(trx, spent.hypervisorId, body.agent_version);
      return spent.hypervisorId;
    });
    if (!hypervisorId) throw new ApiError('SVC-ENROLL-401');
    await refundRateLimitHit(db, limitKey);
    c.get('logger').info('agent enrolled', {
      hypervisor_id: hypervisorId,
      agent_version: body.agent_version,
    });
    return c.json(
      {
        object: 'agent_credential' as const,
        attributes: {
          credential: secret.token,
          hypervisor_uuid: hypervisorId,
          settings: agentSettings(config),
        },
      },
      201,
    );
  });
}
