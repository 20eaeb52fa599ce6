import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { findVolume, type VolumeRow } from '../../db/repositories/storage/volumes.js';
import type { Asker } from '../../domain/actors.js';
import type { AppEnv } from '../../http/context.js';
import { deleteVolume } from '../../services/storage/volume-delete.js';
import {
  type commonErrors,
  type conflictResponse,
  type JsonResponse,
  type notFoundResponse,
  uuidParam,
  type workflowUnavailableResponse,
} from '../../wire/schemas.js';
import type { z } from '../../wire/zod.js';
import { pathParam } from './path-params.js';

/** An attach's, detach's or resize's 202, in the Client and the Application API alike. */
export const VOLUME_CHANGE_ACCEPTED = 'Accepted: an operation of the instance changes the volume.';

/** A volume delete's 202, 204 and 409, in the Client and the Application API alike. */
export const VOLUME_DELETING =
  'Accepted: the volume is `deleting`; it is gone once its hypervisor removed it.';
export const volumeGone = { description: 'The volume is gone (it was on no hypervisor).' };
export const VOLUME_DELETE_CONFLICTS = 'The volume is on an instance or changing (SVC-INUSE-409).';

/**
 * `DELETE /volumes/{<param>}`, a customer's own volume or, in the Application API, any: 204 when
 * it is gone at once (it was never on a hypervisor), 202 with it `deleting` while its hypervisor
 * removes its disk. The route file states its method, path and responses, who asks and how the
 * volume is shown.
 */
export function volumeDeleteRoute<P extends string, E extends z.ZodType>(spec: {
  readonly method: 'delete';
  readonly path: `/volumes/{${P}}`;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 202: JsonResponse<E>; 204: typeof volumeGone } & typeof commonErrors &
    typeof notFoundResponse &
    ReturnType<typeof conflictResponse> &
    typeof workflowUnavailableResponse;
  readonly asker: (c: Context<AppEnv>) => Asker;
  readonly serialize: (row: VolumeRow) => z.infer<E>;
}) {
  const param = pathParam<P>(spec.path);
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: ['Volumes'],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam(param) },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const volumeId = (c.req.valid('param') as Record<string, string>)[param]!;
        const deps = c.get('deps');
        const outcome = await deleteVolume(deps, spec.asker(c), {
          volumeId,
          correlationId: c.get('requestId'),
        });
        const volume = outcome.gone ? undefined : await findVolume(deps.db, volumeId);
        // Gone already (a hypervisor quicker than this answer): as if it went at once.
        if (!volume) return c.body(null, 204);
        return c.json(spec.serialize(volume), 202);
      });
    },
  };
}
