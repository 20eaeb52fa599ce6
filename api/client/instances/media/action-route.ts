import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listIsosOfInstance } from '../../../../db/repositories/storage/instance-isos.js';
import type { Asker } from '../../../../domain/actors.js';
import type { AppEnv } from '../../../../http/context.js';
import type { ServiceDeps } from '../../../../services/context.js';
import {
  type commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonBody,
  jsonContent,
  type notFoundResponse,
  optionalJsonBody,
  uuidParam,
  type workflowUnavailableResponse,
} from '../../../../wire/schemas.js';
import { IsoListEnvelope, serializeIso } from '../../../../wire/serializers/storage/iso.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

/** An ISO of the instance's library, by its uuid. */
export const IsoChoice = z
  .strictObject({
    iso: z.string().uuid().openapi({ description: 'An `available` ISO of the instance’s library.' }),
  })
  .openapi('IsoChoiceRequest');

/** A media action's answers, the library either way, and its refusals: the same for the three. */
export const driveAsItWas = jsonContent(IsoListEnvelope, 'The drive already was so; nothing changed.');
export const driveChanging = jsonContent(
  IsoListEnvelope,
  'Accepted: an operation of the instance changes its drive.',
);
export const mediaRefused = conflictResponse(
  `The ISO is not \`available\` here, or the instance’s status does not allow it (SVC-CONFLICT-409); ${INSTANCE_HELD}`,
);

/**
 * `POST /{cloudInstance}/media/iso/<action>`: 202 when an operation of the instance began, 200 when
 * the drive already was as asked; both answer the library, which shows the ISO `mounted`. The
 * route file states its method, path (which ends in its action) and responses.
 */
export function mediaAction<A extends 'mount' | 'unmount' | 'boot'>(spec: {
  readonly action: A;
  readonly method: 'post';
  readonly path: `/{cloudInstance}/media/iso/${NoInfer<A>}`;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 200: typeof driveAsItWas; 202: typeof driveChanging } & typeof commonErrors &
    typeof notFoundResponse &
    typeof mediaRefused &
    typeof workflowUnavailableResponse;
  readonly run: (
    deps: ServiceDeps,
    asker: Asker,
    request: { instanceId: string; isoId: string | null; correlationId: string | null },
  ) => Promise<{ accepted: boolean }>;
}) {
  const route = createRoute({
    method: spec.method,
    path: spec.path,
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
    responses: spec.responses,
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
