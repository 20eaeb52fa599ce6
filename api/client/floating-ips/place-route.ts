import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { FloatingIpRow } from '../../../db/repositories/network/floating-ips.js';
import type { Asker } from '../../../domain/actors.js';
import type { AppEnv } from '../../../http/context.js';
import type { ServiceDeps } from '../../../services/context.js';
import {
  type commonErrors,
  type conflictResponse,
  type JsonResponse,
  jsonBody,
  type notFoundResponse,
  uuidParam,
  type workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import {
  type FloatingIpEnvelope,
  serializeFloatingIp,
} from '../../../wire/serializers/network/floating-ip.js';
import { customerActor } from '../../auth/principals.js';
import { FloatingIpTargetBody } from './answers.js';

/** What attach and move ask their service: the floating IP, the instance it goes to, the request id. */
interface PlaceRequest {
  readonly addressId: string;
  readonly instanceId: string;
  readonly correlationId: string | null;
}

/**
 * `POST /floating-ips/{cloudIpAddress}/<attach|move>`: the floating IP put on the instance its body
 * names, by `place`; 202 when an operation began, 200 when it already was there. The route file
 * states its method, path and responses.
 */
export function floatingIpPlaceRoute(spec: {
  readonly method: 'post';
  readonly path: `/floating-ips/{cloudIpAddress}/${'attach' | 'move'}`;
  readonly summary: string;
  readonly description: string;
  readonly responses: {
    200: JsonResponse<typeof FloatingIpEnvelope>;
    202: JsonResponse<typeof FloatingIpEnvelope>;
  } & typeof commonErrors &
    typeof notFoundResponse &
    ReturnType<typeof conflictResponse> &
    typeof workflowUnavailableResponse;
  readonly place: (
    deps: ServiceDeps,
    asker: Asker,
    request: PlaceRequest,
  ) => Promise<{ address: FloatingIpRow; accepted: boolean }>;
}) {
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: ['Floating IPs'],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam('cloudIpAddress'), body: jsonBody(FloatingIpTargetBody) },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const { address, accepted } = await spec.place(c.get('deps'), customerActor(c), {
          addressId: c.req.valid('param').cloudIpAddress,
          instanceId: c.req.valid('json').instance,
          correlationId: c.get('requestId'),
        });
        return c.json(serializeFloatingIp(address), accepted ? 202 : 200);
      });
    },
  };
}
