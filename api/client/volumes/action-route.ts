import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Asker } from '../../../domain/actors.js';
import type { ServiceDeps } from '../../../services/context.js';
import type { VolumeOutcome } from '../../../services/storage/volume-attachments.js';
import type { AppEnv } from '../../context.js';
import { customerActor } from '../../principals.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  uuidParam,
  workflowUnavailableResponse,
} from '../../schemas.js';
import { serializeVolume, VolumeEnvelope } from '../../serializers/volume.js';
import type { z } from '../../zod.js';

export interface VolumeActionRequest<B> {
  readonly volumeId: string;
  readonly body: B;
  readonly correlationId: string | null;
}

/**
 * `POST /volumes/{cloudVolume}/<action>`: 202 when an operation of the instance began, 200 when
 * the volume already was as asked (or, for a grow on no instance, is so now); both answer the volume.
 */
export function volumeAction<S extends z.ZodObject>(spec: {
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
  const route = createRoute({
    method: 'post',
    path: `/volumes/{cloudVolume}/${spec.action}`,
    tags: ['Volumes'],
    summary: spec.summary,
    description: spec.description,
    request: {
      params: uuidParam('cloudVolume'),
      body: spec.bodyOptional ? optionalJsonBody(spec.body) : jsonBody(spec.body),
    },
    responses: {
      200: jsonContent(VolumeEnvelope, spec.done),
      202: jsonContent(VolumeEnvelope, 'Accepted: an operation of the instance changes the volume.'),
      ...commonErrors,
      ...notFoundResponse,
      ...conflictResponse(spec.conflicts),
      ...workflowUnavailableResponse,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const { cloudVolume } = c.req.valid('param' as never) as { cloudVolume: string };
        const body = (c.req.valid('json' as never) ?? {}) as z.infer<S>;
        const { volume, accepted } = await spec.run(c.get('deps'), customerActor(c), {
          volumeId: cloudVolume,
          body,
          correlationId: c.get('requestId'),
        });
        return c.json(serializeVolume(volume), accepted ? 202 : 200);
      });
    },
  };
}
