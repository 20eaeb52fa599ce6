import type { Database } from '../../db/database.js';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import {
  deleteEndpointOf,
  type EndpointChange,
  type EndpointOwner,
  insertEndpointWithin,
  rotateEndpointSecret,
  updateEndpointOf,
  type WebhookEndpointRow,
} from '../../db/repositories/events/webhook-endpoints.js';
import { type Asker, actorName } from '../../domain/actors.js';
import type { ApiVersion } from '../../domain/api-versions/versions.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { EventType } from '../../domain/events/catalogue.js';
import {
  checkEndpointEventTypes,
  checkEndpointUrl,
  endpointNetworks,
} from '../../domain/events/endpoints.js';
import type { Config } from '../../platform/config.js';
import { generateWebhookSecret, secretBox } from '../../platform/secrets.js';
import type { ServiceDeps } from '../context.js';

// Webhook endpoints (docs/events.md "Endpoints"): a customer keeps their own, administrators the
// plane's. The secret is made here, sealed at rest, and returned once: by the create and by a rotation.

/** A customer's endpoints are theirs; an administrator's are the plane's. */
export const ownerOf = (asker: Asker): EndpointOwner =>
  asker.type === 'user' ? { userId: asker.userId } : 'plane';

function checkedUrl(config: Config, owner: EndpointOwner, raw: string): string {
  const checked = checkEndpointUrl(raw, endpointNetworks(owner === 'plane', config));
  if (typeof checked === 'string')
    throw new ApiError('SVC-REQ-400', { fields: [{ field: 'url', detail: checked }] });
  return checked.url;
}

function checkedEventTypes(owner: EndpointOwner, types: readonly EventType[]): EventType[] {
  const refused = checkEndpointEventTypes(owner === 'plane', types);
  if (refused) throw new ApiError('SVC-REQ-400', { fields: [{ field: 'event_types', detail: refused }] });
  return [...new Set(types)];
}

export interface NewEndpointRequest {
  readonly url: string;
  readonly description: string;
  readonly eventTypes: readonly EventType[];
  readonly enabled: boolean;
  /** The version its deliveries are rendered in (docs/api.md "Versions"). */
  readonly apiVersion: ApiVersion;
  readonly correlationId: string | null;
}

/** The endpoint and its secret, which no later answer shows again. */
export interface EndpointWithSecret {
  readonly endpoint: WebhookEndpointRow;
  readonly secret: string;
}

export async function createEndpoint(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  asker: Asker,
  request: NewEndpointRequest,
): Promise<EndpointWithSecret> {
  const owner = ownerOf(asker);
  const url = checkedUrl(deps.config, owner, request.url);
  const eventTypes = checkedEventTypes(owner, request.eventTypes);
  const secret = generateWebhookSecret();
  const limit = deps.config.WEBHOOK_ENDPOINTS_MAX;
  const endpoint = await deps.db.transaction().execute(async (trx) => {
    const row = await insertEndpointWithin(
      trx,
      {
        owner,
        url,
        description: request.description,
        eventTypes,
        enabled: request.enabled,
        secretSealed: secretBox(deps.config.SECRETS_KEY).seal(secret),
        apiVersion: request.apiVersion,
      },
      limit,
    );
    if (!row)
      throw new ApiError('SVC-QUOTA-409', {
        detail: `At most ${limit} webhook endpoints; delete one first.`,
      });
    await record(trx, asker, 'webhook_endpoint.created', row.id, request.correlationId);
    return row;
  });
  return { endpoint, secret };
}

export async function updateEndpoint(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  asker: Asker,
  request: {
    readonly endpointId: string;
    readonly change: Omit<EndpointChange, 'eventTypes'> & { readonly eventTypes?: readonly EventType[] };
    readonly correlationId: string | null;
  },
): Promise<WebhookEndpointRow> {
  const owner = ownerOf(asker);
  const { change } = request;
  const checked: EndpointChange = {
    ...change,
    ...(change.url === undefined ? {} : { url: checkedUrl(deps.config, owner, change.url) }),
    ...(change.eventTypes === undefined ? {} : { eventTypes: checkedEventTypes(owner, change.eventTypes) }),
  };
  return deps.db.transaction().execute(async (trx) => {
    const row = await updateEndpointOf(trx, owner, request.endpointId, checked);
    if (!row) throw notFound();
    await record(trx, asker, 'webhook_endpoint.updated', row.id, request.correlationId);
    return row;
  });
}

/** A new secret, returned once; the old one keeps signing beside it for WEBHOOK_SECRET_OVERLAP_MS. */
export async function rotateSecret(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  asker: Asker,
  request: { readonly endpointId: string; readonly correlationId: string | null },
): Promise<EndpointWithSecret> {
  const secret = generateWebhookSecret();
  const sealed = secretBox(deps.config.SECRETS_KEY).seal(secret);
  const endpoint = await deps.db.transaction().execute(async (trx) => {
    const row = await rotateEndpointSecret(
      trx,
      ownerOf(asker),
      request.endpointId,
      sealed,
      deps.config.WEBHOOK_SECRET_OVERLAP_MS,
    );
    if (!row) throw notFound();
    await record(trx, asker, 'webhook_endpoint.secret_rotated', row.id, request.correlationId);
    return row;
  });
  return { endpoint, secret };
}

export async function deleteEndpoint(
  deps: Pick<ServiceDeps, 'db'>,
  asker: Asker,
  request: { readonly endpointId: string; readonly correlationId: string | null },
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await deleteEndpointOf(trx, ownerOf(asker), request.endpointId))) throw notFound();
    await record(trx, asker, 'webhook_endpoint.deleted', request.endpointId, request.correlationId);
  });
}

function record(
  trx: Database,
  asker: Asker,
  event: string,
  endpointId: string,
  correlationId: string | null,
) {
  return recordActivity(trx, {
    userId: asker.userId,
    actor: actorName(asker),
    event,
    detail: { webhook_endpoint_id: endpointId },
    correlationId,
  });
}
