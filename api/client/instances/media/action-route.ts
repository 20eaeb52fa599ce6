import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listIsosOfInstance } from '../../../../db/repositories/instance-isos.js';
import type { Asker } from '../../../../domain/actors.js';
import type { AppEnv } from '../../../../http/context.js';
import type { ServiceDeps } from '../../../../services/context.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonBody,
  jsonContent,
  notFoundResponse,
  optionalJsonBody,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { IsoListEnvelope, serializeIso } from '../../../../wire/serializers/iso.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

/** An ISO of the instance's library, by its uuid. */
export const IsoChoice = z
  .strictObject({
    iso: z.string().uuid().openapi({ description: 'An `available` ISO of the instance’s library.' }),
  })
  .openapi('IsoChoiceRequest');

/**
 * `POST /{cloudInstance}/media/iso/<action>`: 202 when an operation of the instance began, 200 when
 * the drive already was as asked; both answer the library, which shows the ISO `mounted`.
 */
export function mediaAction(spec: {
  readonly action: 'mount' | 'unmount' | 'boot';
  readonly summary: string;
  readonly description: string;
  readonly run: (
    deps: ServiceDeps,
    asker: Asker,
    request: { instanceId: string; isoId: string | null; correlationId: string | null },
  ) => Promise<{ accepted: boolean }>;
}) {
  const route = createRoute({
    method: 'post',
    path: `/{cloudInstance}/media/iso/${spec.action}`,
    tags: ['Media'],
    summary: spec.summary,
    description: spec.description,
    request: {
      params: uuidParam('cloudInstance'),
      body:
        spec.action === 'unmount'
          ? optionalJsonBody(z.strictObject({}).openapi('IsoUnmountRequest'))
          : jsonBody(IsoChoice),
    },
    responses: {
      200: jsonContent(IsoListEnvelope, 'The drive already was so; nothing changed.'),
      202: jsonContent(IsoListEnvelope, 'Accepted: an operation of the instance changes its drive.'),
      ...commonErrors,
      ...notFoundResponse,
      ...conflictResponse(
        `The ISO is not \`available\` here, or the instance’s status does not allow it (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
      ),
      ...workflowUnavailableResponse,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const { cloudInstance } = c.req.valid('param');
        const body = c.req.valid('json') ?? {};
        const deps = c.get('deps');
        const { accepted } = await spec.run(deps, customerActor(c), {
          instanceId: cloudInstance,
          isoId: body.iso ?? null,
          correlationId: c.get('requestId'),
        });
        const rows = await listIsosOfInstance(deps.db, cloudInstance);
        return c.json({ data: rows.map(serializeIso) }, accepted ? 202 : 200);
      });
    },
  };
}
