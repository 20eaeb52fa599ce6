import { isUniqueViolation } from '../../db/errors.js';
import {
  deleteProviderUnlessRunning,
  insertProvider,
  type ProviderFields,
  type ProviderRow,
  setProviderCredential,
  updateProvider,
} from '../../db/repositories/providers.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { endpointProblem } from '../../domain/providers.js';
import { secretBox } from '../../platform/secrets.js';
import type { ServiceDeps } from '../context.js';
import { inUse } from '../in-use.js';

// An administrator's providers: the external backends the plane talks to. The record is plain;
// the credential goes in on its own endpoint, sealed, and never comes back out.

type Deps = Pick<ServiceDeps, 'db' | 'config'>;

/** The endpoint as stored, or a 400 naming `endpoint` (the rule is domain/providers.ts). */
function checkedEndpoint(deps: Deps, endpoint: string): string {
  const problem = endpointProblem(endpoint, deps.config.PROVIDER_ALLOW_HTTP);
  if (problem) throw new ApiError('SVC-REQ-400', { fields: [{ field: 'endpoint', detail: problem }] });
  return endpoint;
}

const nameTaken = (cause: unknown) =>
  new ApiError('SVC-CONFLICT-409', { detail: 'A provider with this name exists.', cause });

export async function createProvider(deps: Deps, fields: ProviderFields): Promise<ProviderRow> {
  try {
    return await insertProvider(deps.db, { ...fields, endpoint: checkedEndpoint(deps, fields.endpoint) });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(error);
    throw error;
  }
}

/** The name and the endpoint may change; the kind is what the provider is, and stays. */
export async function editProvider(
  deps: Deps,
  providerId: string,
  fields: Partial<Omit<ProviderFields, 'kind'>>,
): Promise<ProviderRow> {
  const checked =
    fields.endpoint === undefined ? fields : { ...fields, endpoint: checkedEndpoint(deps, fields.endpoint) };
  try {
    const row = await updateProvider(deps.db, providerId, checked);
    if (!row) throw notFound();
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(error);
    throw error;
  }
}

/** Seals a credential, or 503 when the service has no key to seal it with. */
export function sealedCredential(deps: Pick<ServiceDeps, 'config'>, credential: string): string {
  if (!deps.config.SECRETS_KEY)
    throw new ApiError('SVC-CONFIG-503', {
      detail: 'Credentials cannot be stored: the service has no secrets key.',
    });
  return secretBox(deps.config.SECRETS_KEY).seal(credential);
}

/** Replaces the credential at once, untested; `POST …/credential/rotate` tests a new one first. */
export async function setCredential(
  deps: Deps,
  providerId: string,
  credential: string,
): Promise<ProviderRow> {
  const row = await setProviderCredential(deps.db, providerId, sealedCredential(deps, credential));
  if (!row) throw notFound();
  return row;
}

/** Refused while a test, sync or rotation runs; the finished runs go with the provider. */
export async function deleteProvider(deps: Deps, providerId: string): Promise<void> {
  const outcome = await deleteProviderUnlessRunning(deps.db, providerId);
  if (outcome === 'missing') throw notFound();
  if (outcome !== 'deleted') throw inUse('provider', [[outcome.runs, 'running check']], 'has');
}
