import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findVolume } from '../../../db/repositories/volumes.js';
import type { AppEnv } from '../../../http/context.js';
import { deleteVolume } from '../../../services/storage/volume-delete.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { SIDES } from './action-route.js';

/**
 * `DELETE /volumes/{cloudVolume}` (the Application API's `/volumes/{volume}`): 204 when the volume
 * is gone at once (it was never on a hypervisor), 202 with it `deleting` while its hypervisor
 * removes its disk.
 */
export function volumeDelete(spec: { readonly side: keyof typeof SIDES; readonly description: string }) {
  const side = SIDES[spec.side];
  const route = createRoute({
    method: 'delete',
    path: `/volumes/{${side.param}}`,
    tags: ['Volumes'],
    summary: 'Delete a volume',
    description: spec.description,
    request: { params: uuidParam(side.param) },
    responses: {
      202: jsonContent(
        side.envelope,
        'Accepted: the volume is `deleting`; it is gone once its hypervisor removed it.',
      ),
      204: { description: 'The volume is gone (it was on no hypervisor).' },
      ...commonErrors,
      ...notFoundResponse,
      ...conflictResponse('The volume is on an instance or changing (SVC-INUSE-409).'),
      ...workflowUnavailableResponse,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const volumeId = (c.req.valid('param' as never) as Record<string, string>)[side.param]!;
        const deps = c.get('deps');
        const outcome = await deleteVolume(deps, side.actor(c), {
          volumeId,
          correlationId: c.get('requestId'),
        });
        const volume = outcome.gone ? undefined : await findVolume(deps.db, volumeId);
        // Gone already (a hypervisor quicker than this answer): as if it went at once.
        if (!volume) return c.body(null, 204);
        return c.json(side.serialize(volume), 202);
      });
    },
  };
}
