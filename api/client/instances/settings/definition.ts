import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { InstanceSetting } from '../../../../domain/instances/settings.js';
import type { AppEnv } from '../../../../http/context.js';
import { changeSetting } from '../../../../services/instances/settings.js';
import {
  type commonErrors,
  conflictResponse,
  INSTANCE_BUSY,
  type JsonResponse,
  jsonBody,
  type notFoundResponse,
  uuidParam,
} from '../../../../wire/schemas.js';
import { type InstanceEnvelope, serializeInstance } from '../../../../wire/serializers/instances/instance.js';
import { z } from '../../../../wire/zod.js';
import { customerActor } from '../../../auth/principals.js';

/** What every settings route says about when it is refused; the three routes share the rule. */
const SETTINGS_REFUSALS =
  'Refused while another operation runs on the instance (SVC-OP-409) or it is being migrated ' +
  '(INSTANCE_MIGRATING); nothing changes then. Sending the value the instance already has is accepted.';

/** A settings route's 409: the rule the three share. */
export const settingRefused = conflictResponse(`Refused: ${INSTANCE_BUSY}`);

/**
 * `PATCH /{cloudInstance}/settings/<setting>` with a body of one field: the three settings routes
 * (rename, hostname, timezone) differ only in their path (which ends in the setting) and responses,
 * which the route file states with its method, these words, the field and its rule.
 */
export function settingRoute<S extends InstanceSetting>(spec: {
  readonly setting: S;
  readonly method: 'patch';
  readonly path: `/{cloudInstance}/settings/${NoInfer<S>}`;
  readonly field: string;
  readonly value: z.ZodString;
  readonly bodyName: string;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 200: JsonResponse<typeof InstanceEnvelope> } & typeof commonErrors &
    typeof notFoundResponse &
    typeof settingRefused;
}) {
  const Body = z.strictObject({ [spec.field]: spec.value }).openapi(spec.bodyName);
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: ['Instance settings'],
    summary: spec.summary,
    description: `${spec.description} ${SETTINGS_REFUSALS}`,
    request: { params: uuidParam('cloudInstance'), body: jsonBody(Body) },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const instance = await changeSetting(c.get('deps'), customerActor(c), {
          instanceId: c.req.valid('param').cloudInstance,
          setting: spec.setting,
          value: (c.req.valid('json') as Record<string, string>)[spec.field]!,
          correlationId: c.get('requestId'),
        });
        return c.json(serializeInstance(instance), 200);
      });
    },
  };
}
