import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listSshKeysOfUser } from '../../../db/repositories/accounts/ssh-keys.js';
import type { AppEnv } from '../../../http/context.js';
import { commonErrors, jsonContent, listBody, listEnvelope, PageQuery } from '../../../wire/schemas.js';
import { SshKeyEnvelope, serializeSshKey } from '../../../wire/serializers/accounts/ssh-key.js';
import { customerId } from '../../auth/principals.js';

const SshKeyList = listEnvelope(SshKeyEnvelope, 'SshKeyList');

const route = createRoute({
  method: 'get',
  path: '/ssh-keys',
  tags: ['SSH keys'],
  summary: "List the caller's SSH keys",
  description: 'By name. Paginated with `page` (from 1) and `per_page` (1 to 100, default 25).',
  request: { query: PageQuery },
  responses: { 200: jsonContent(SshKeyList, 'A page of SSH keys.'), ...commonErrors },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { page, per_page } = c.req.valid('query');
    const request = { page, perPage: per_page };
    const { rows, total } = await listSshKeysOfUser(c.get('deps').db, customerId(c), request);
    return c.json(listBody(request, total, rows.map(serializeSshKey)), 200);
  });
}
