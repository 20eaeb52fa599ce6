import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Asker } from '../../../domain/actors.js';
import type { AppEnv } from '../../../http/context.js';
import type { ServiceDeps } from '../../../services/context.js';
import type { VolumeOutcome } from '../../../services/storage/volumes.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import {
  AdminVolumeEnvelope,
  serializeAdminVolume,
  serializeVolume,
  VolumeEnvelope,
} from '../../../wire/serializers/volume.js';
import type { z } from '../../../wire/zod.js';
import { adminActor, customerActor } from '../../auth/principals.js';

export interface VolumeActionRequest<B> {
  readonly volumeId: string;
  readonly body: B;
  readonly correlationId: string | null;
}

/** Who asks: a customer through the Client API, or an administrator through the Application API. */
export const SIDES = {
  client: {
    param: 'cloudVolume',
    actor: customerActor,
    envelope: VolumeEnvelope,
    serialize: serializeVolume,
  },
  application: {
    param: 'volume',
    actor: adminActor,
    envelope: AdminVolumeEnvelope,
    serialize: serializeAdminVolume,
  },
} as const;

/**
 * `POST /volumes/{cloudVolume}/<action>` (the Application API's `/volumes/{volume}/<action>`): 202
 * when an operation of the instance began, 200 when the volume already was as asked (or, for a grow
 * on no instance, is so now); both answer the volume.
 */
export function volumeAction<S extends z.ZodObject>(spec: {
  readonly side: keyof typeof SIDES;
  readonly action: 'attach' | 'detach' | 'resize';
  readonly summary: string;
  readonly description: string;
  readonly body: S;
  /** A body that may be left out (an action that needs nothing more than the volume). */
  readonly bodyOptional?: boolean;
  readonly done: string;
  readonly conflicts: string;
  readonly run: (
    deps: ServiceDeps,
    asker: Asker,
    request: VolumeActionRequest<z.infer<S>>,
  ) => Promise<VolumeOutcome>;
}) {
  const side = SIDES[spec.side];
  const route = createRoute({
    method: 'post',
    path: `/volumes/{${side.param}}/${spec.action}`,
    tags: ['Volumes'],
    summary: spec.summary,
    description: spec.description,
    request: {
      params: uuidParam(side.param),
      body: spec.bodyOptional ? optionalJsonBody(spec.body) : jsonBody(spec.body),
    },
    responses: {
      200: jsonContent(side.envelope, spec.done),
      202: jsonContent(side.envelope, 'Accepted: an operation of the instance changes the volume.'),
      ...commonErrors,
      ...notFoundResponse,
      ...conflictResponse(spec.conflicts),
      ...workflowUnavailableResponse,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const volumeId = (c.req.valid('param' as never) as Record<string, string>)[side.param]!;
        const body = (c.req.valid('json' as never) ?? {}) as z.infer<S>;
        const { volume, accepted } = await spec.run(c.get('deps'), side.actor(c), {
          volumeId,
          body,
          correlationId: c.get('requestId'),
        });
        return c.json(side.serialize(volume), accepted ? 202 : 200);
      });
    },
  };
}
