import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { listNicsOfNetwork } from '../../../db/repositories/network/private-network-nics.js';
import type { PrivateNetworkRow } from '../../../db/repositories/network/private-networks.js';
import type { Asker } from '../../../domain/actors.js';
import { PRIVATE_NICS_PER_INSTANCE } from '../../../domain/networks/private-networks.js';
import type { AppEnv } from '../../../http/context.js';
import type { ServiceDeps } from '../../../services/context.js';
import {
  type commonErrors,
  conflictResponse,
  INSTANCE_HELD,
  jsonBody,
  jsonContent,
  type notFoundResponse,
  uuidParam,
  type workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import {
  PrivateNetworkDetailEnvelope,
  serializePrivateNetworkDetail,
} from '../../../wire/serializers/network/private-network.js';
import { z } from '../../../wire/zod.js';
import { customerActor } from '../../auth/principals.js';

const instance = z
  .string()
  .uuid()
  .openapi({ description: 'One of the caller’s instances, in the network’s location.' });

const BODIES = {
  attach: z
    .object({
      instance,
      address: z
        .ipv4()
        .nullish()
        .openapi({ description: 'The NIC’s address in the range; by default the lowest free one.' }),
    })
    .strict()
    .openapi('PrivateNetworkAttachRequest'),
  detach: z.object({ instance }).strict().openapi('PrivateNetworkDetachRequest'),
};

interface ActionRequest {
  readonly networkId: string;
  readonly instanceId: string;
  readonly address: string | null;
  readonly correlationId: string | null;
}

/** An attach's or a detach's answers, the network either way, and its refusals: the same for both. */
export const networkAsItWas = jsonContent(
  PrivateNetworkDetailEnvelope,
  'It already was so; nothing changed.',
);
export const nicChanging = jsonContent(
  PrivateNetworkDetailEnvelope,
  'Accepted; the instance’s NIC `attaching` or `detaching`.',
);
export const privateNetworkRefused = conflictResponse(
  'The instance is in another location, its NIC is still changing, or its status does not allow it ' +
    `(SVC-CONFLICT-409); it is on ${PRIVATE_NICS_PER_INSTANCE} networks already (SVC-QUOTA-409); the address is taken or the ` +
    `range full (SVC-IP-409); ${INSTANCE_HELD}`,
);

/**
 * `POST /private-networks/{cloudNetwork}/<action>`: 202 when an operation of the instance began,
 * 200 when the instance already was where it was asked to be; both answer the network. The route
 * file states its method, path (which ends in its action) and responses.
 */
export function privateNetworkAction<A extends 'attach' | 'detach'>(spec: {
  readonly action: A;
  readonly method: 'post';
  readonly path: `/private-networks/{cloudNetwork}/${NoInfer<A>}`;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 200: typeof networkAsItWas; 202: typeof nicChanging } & typeof commonErrors &
    typeof notFoundResponse &
    typeof privateNetworkRefused &
    typeof workflowUnavailableResponse;
  readonly run: (
    deps: ServiceDeps,
    asker: Asker,
    request: ActionRequest,
  ) => Promise<{ network: PrivateNetworkRow; accepted: boolean }>;
}) {
  const body: (typeof BODIES)[keyof typeof BODIES] = BODIES[spec.action];
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: ['Private networks'],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam('cloudNetwork'), body: jsonBody(body) },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const { cloudNetwork } = c.req.valid('param');
        const body = c.req.valid('json');
        const deps = c.get('deps');
        const { network, accepted } = await spec.run(deps, customerActor(c), {
          networkId: cloudNetwork,
          instanceId: body.instance,
          address: ('address' in body ? body.address : undefined) ?? null,
          correlationId: c.get('requestId'),
        });
        const nics = await listNicsOfNetwork(deps.db, network.id);
        return c.json(serializePrivateNetworkDetail(network, nics), accepted ? 202 : 200);
      });
    },
  };
}
