import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { insertCredential, revokeUnusedEnrollmentTokens } from '../../../db/repositories/credentials.js';
import { findHypervisor } from '../../../db/repositories/hypervisors.js';
import { issueSecret } from '../../../domain/credentials.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../schemas.js';
import { z } from '../../zod.js';

const EnrollmentToken = z
  .object({
    object: z.literal('enrollment_token'),
    attributes: z.object({
      token: z.string().openapi({ description: 'Shown once; only its hash is stored.' }),
      hypervisor_uuid: z.string().uuid(),
      expires_at: z.string(),
    }),
  })
  .openapi('EnrollmentToken');

const route = createRoute({
  method: 'post',
  path: '/hypervisors/{hypervisor}/enrollment-token',
  tags: ['Hypervisors'],
  summary: 'Issue a one-time enrollment token',
  description:
    'The token is valid once, until `expires_at` (ENROLLMENT_TOKEN_TTL_MS), and is shown only in this response. ' +
    'Issuing a new one voids any earlier unused token of the hypervisor.',
  request: { params: uuidParam('hypervisor') },
  responses: { 201: jsonContent(EnrollmentToken, 'The token.'), ...commonErrors, ...notFoundResponse },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db, config } = c.get('deps');
    const hypervisor = await findHypervisor(db, c.req.valid('param').hypervisor);
    if (!hypervisor) throw notFound();
    const secret = issueSecret('enrollment');
    const expiresAt = new Date(Date.now() + config.ENROLLMENT_TOKEN_TTL_MS);
    await db.transaction().execute(async (trx) => {
      await revokeUnusedEnrollmentTokens(trx, hypervisor.id);
      await insertCredential(trx, {
        type: 'enrollment',
        tokenHash: secret.hash,
        hint: secret.hint,
        hypervisorId: hypervisor.id,
        expiresAt,
      });
    });
    return c.json(
      {
        object: 'enrollment_token' as const,
        attributes: {
          token: secret.token,
          hypervisor_uuid: hypervisor.id,
          expires_at: expiresAt.toISOString(),
        },
      },
      201,
    );
  });
}
