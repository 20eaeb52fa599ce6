import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listEvacuationCounts } from '../../../db/repositories/moves/evacuation-items.js';
import { listEvacuations } from '../../../db/repositories/moves/evacuations.js';
import { EVACUATION_STATES } from '../../../domain/evacuations/states.js';
import type { AppEnv } from '../../../http/context.js';
import { countsOf } from '../../../services/evacuations/show.js';
import { keysetListBody, keysetListEnvelope, keysetQuery, listRequestOf } from '../../../wire/keyset-list.js';
import { commonErrors, jsonContent } from '../../../wire/schemas.js';
import { EvacuationEnvelope, serializeEvacuation } from '../../../wire/serializers/moves/evacuation.js';
import { z } from '../../../wire/zod.js';

const EvacuationListQuery = keysetQuery({
  state: z.enum(EVACUATION_STATES).optional(),
  hypervisor: z.string().uuid().optional().openapi({ description: 'Evacuations of this hypervisor.' }),
});

const route = createRoute({
  method: 'get',
  path: '/evacuations',
  tags: ['Evacuations'],
  summary: 'List evacuations',
  description:
    'Newest first, with their progress (not their instances), filtered by `state` and `hypervisor`. Paginated ' +
    'with `page` and `per_page`, or read on with `cursor` (keyset; docs/api.md "Conventions").',
  request: { query: EvacuationListQuery },
  responses: {
    200: jsonContent(keysetListEnvelope(EvacuationEnvelope, 'EvacuationList'), 'A page of evacuations.'),
    ...commonErrors,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    const deps = c.get('deps');
    const request = listRequestOf(query);
    const { rows, ...page } = await listEvacuations(
      deps.db,
      {
        ...(query.state ? { state: query.state } : {}),
        ...(query.hypervisor ? { hypervisorId: query.hypervisor } : {}),
      },
      request,
    );
    const counts = await listEvacuationCounts(
      deps.db,
      rows.map((r) => r.id),
    );
    return c.json(
      keysetListBody(
        request,
        page,
        rows.map((r) => serializeEvacuation(r, countsOf(counts, r.id))),
      ),
      200,
    );
  });
}
