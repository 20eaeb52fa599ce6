import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import { issueEnrollmentToken } from '../../../services/hypervisors/enrollment-token.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';

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
    const issued = await issueEnrollmentToken(c.get('deps'), {
      hypervisorId: c.req.valid('param').hypervisor,
    });
    return c.json(
      {
        object: 'enrollment_token' as const,
        attributes: {
          token: issued.token,
          hypervisor_uuid: issued.hypervisorId,
          expires_at: issued.expiresAt.toISOString(),
        },
      },
      201,
    );
  });
}
