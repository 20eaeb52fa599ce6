import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { revokeHypervisorCredentials } from '../../../db/repositories/credentials.js';
import { findHypervisor, setHypervisorStatus } from '../../../db/repositories/hypervisors.js';
import { notFound } from '../../../domain/errors.js';
import type { AppEnv } from '../../context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../schemas.js';
import { HypervisorEnvelope, serializeHypervisor } from '../../serializers/hypervisor.js';

const route = createRoute({
  method: 'post',
  path: '/hypervisors/{hypervisor}/revoke-agent',
  tags: ['Hypervisors'],
  summary: "Revoke the hypervisor's agent credential",
  description:
    'The agent credential (and any unused enrollment token) stops working at once; the hypervisor becomes ' +
    '`revoked` until an agent enrolls again with a new token.',
  request: { params: uuidParam('hypervisor') },
  responses: {
    200: jsonContent(HypervisorEnvelope, 'The hypervisor.'),
    ...commonErrors,
    ...notFoundResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db } = c.get('deps');
    const id = c.req.valid('param').hypervisor;
    const row = await db.transaction().execute(async (trx) => {
      if (!(await findHypervisor(trx, id))) return undefined;
      await revokeHypervisorCredentials(trx, id);
      await setHypervisorStatus(trx, id, 'revoked');
      return findHypervisor(trx, id);
    });
    if (!row) throw notFound();
    c.get('logger').info('agent credential revoked', { hypervisor_id: id });
    return c.json(serializeHypervisor(row), 200);
  });
}
