import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { FloatingIpRow } from '../../../db/repositories/floating-ips.js';
import type { Asker } from '../../../domain/actors.js';
import type { AppEnv } from '../../../http/context.js';
import type { ServiceDeps } from '../../../services/context.js';
import {
  commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import { FloatingIpEnvelope, serializeFloatingIp } from '../../../wire/serializers/floating-ip.js';
import { z } from '../../../wire/zod.js';
import { customerActor } from '../../auth/principals.js';

const InstanceBody = z
  .object({
    instance: z
      .string()
      .uuid()
      .openapi({ description: 'One of the caller’s instances, in the same location.' }),
  })
  .strict()
  .openapi('FloatingIpTargetRequest');

interface ActionRequest {
  readonly addressId: string;
  readonly instanceId: string;
  readonly correlationId: string | null;
}

/**
 * `POST /floating-ips/{cloudIpAddress}/<action>`: 202 when an operation began, 200 when the
 * floating IP was where it was asked to be; attach and move name the instance in the body.
 */
export function floatingIpAction(spec: {
  readonly action: 'attach' | 'detach' | 'move';
  readonly summary: string;
  readonly description: string;
  readonly run: (
    deps: ServiceDeps,
    asker: Asker,
    request: ActionRequest,
  ) => Promise<{ address: FloatingIpRow; accepted: boolean }>;
}) {
  const withBody = spec.action !== 'detach';
  const route = createRoute({
    method: 'post',
    path: `/floating-ips/{cloudIpAddress}/${spec.action}`,
    tags: ['Floating IPs'],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam('cloudIpAddress'), ...(withBody ? { body: jsonBody(InstanceBody) } : {}) },
    responses: {
      200: jsonContent(FloatingIpEnvelope, 'It already was where asked; nothing changed.'),
      202: jsonContent(FloatingIpEnvelope, 'Accepted; the floating IP `attaching` or `detaching`.'),
      ...commonErrors,
      ...notFoundResponse,
      ...conflictResponse(
        'Another location, on another instance (attach) or on none (move), still changing, or the instance’s ' +
          `status does not allow it (SVC-CONFLICT-409); the instance holds its most addresses (SVC-QUOTA-409); ${INSTANCE_HELD}`,
      ),
      ...workflowUnavailableResponse,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const params = c.req.valid('param' as never) as { cloudIpAddress: string };
        const body = (withBody ? c.req.valid('json' as never) : { instance: '' }) as { instance: string };
        const { address, accepted } = await spec.run(c.get('deps'), customerActor(c), {
          addressId: params.cloudIpAddress,
          instanceId: body.instance,
          correlationId: c.get('requestId'),
        });
        return c.json(serializeFloatingIp(address), accepted ? 202 : 200);
      });
    },
  };
}
