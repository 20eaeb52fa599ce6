import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listStorageMoves } from '../../../db/repositories/storage-move-reads.js';
import { STORAGE_MOVE_STATES } from '../../../domain/storage-moves/states.js';
import type { AppEnv } from '../../../http/context.js';
import { keysetListBody, keysetListEnvelope, keysetQuery, listRequestOf } from '../../../wire/keyset-list.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import { StorageMoveEnvelope, serializeStorageMove } from '../../../wire/serializers/storage-move.js';
import { z } from '../../../wire/zod.js';

const Query = keysetQuery({
  state: z.enum(STORAGE_MOVE_STATES).optional(),
  instance: z.string().uuid().optional().openapi({ description: 'Storage moves of this instance.' }),
  hypervisor: z.string().uuid().optional().openapi({ description: 'Storage moves on this hypervisor.' }),
});

const route = createRoute({
  method: 'get',
  path: '/storage-moves',
  tags: ['Storage moves'],
  summary: 'List storage moves',
  description:
    'Newest first, filtered by `state`, `instance` and `hypervisor`; the filters combine. Paginated with `page` and ' +
    '`per_page`, or read on with `cursor` (keyset; docs/api.md "Conventions").',
  request: { query: Query },
  responses: {
    200: jsonContent(keysetListEnvelope(StorageMoveEnvelope, 'StorageMoveList'), 'A page of storage moves.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    const deps = c.get('deps');
    const request = listRequestOf(query);
    const { records, ...page } = await listStorageMoves(
      deps.db,
      {
        ...(query.state ? { state: query.state } : {}),
        ...(query.instance ? { instanceId: query.instance } : {}),
        ...(query.hypervisor ? { hypervisorId: query.hypervisor } : {}),
      },
      request,
    );
    return c.json(
      keysetListBody(
        request,
        page,
        records.map((r) => serializeStorageMove(r, deps.config)),
      ),
      200,
    );
  });
}
