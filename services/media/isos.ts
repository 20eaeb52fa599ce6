import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import {
  deleteIso,
  findIso,
  type IsoRow,
  insertIsoWithin,
} from '../../db/repositories/storage/instance-isos.js';
import { type Asker, actorName } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { checkIsoUrl } from '../../domain/media/iso-sources.js';
import { isoFetchWorkflowId } from '../../domain/workflow-ids.js';
import type { ServiceDeps } from '../context.js';
import { placedInstanceInReach } from '../instances/reach.js';
import { startWorkflow, stepTiming } from '../workflow-starts.js';

/**
 * Adds an ISO to the instance's library from `url` (SSRF rules: domain/media/iso-sources.ts) and
 * has the instance's hypervisor fetch it (`fetchIso`); at most MAX_ISOS_PER_INSTANCE. The ISO is
 * `fetching` at once; if its workflow cannot start it is removed again, and the answer is 503.
 */
export async function addIso(
  deps: ServiceDeps,
  asker: Asker,
  request: {
    instanceId: string;
    name: string;
    url: string;
    correlationId: string | null;
    /** The body's field that named the instance (an administrator's add), for its 404. */
    instanceField?: string;
  },
): Promise<IsoRow> {
  const instance = await placedInstanceInReach(deps, asker, request.instanceId, request.instanceField);
  const { config } = deps;
  const source = checkIsoUrl(request.url, {
    allowHttp: config.ISO_ALLOW_HTTP,
    allowedNetworks: config.ISO_ALLOWED_NETWORKS,
  });
  if (typeof source === 'string')
    throw new ApiError('SVC-REQ-400', { fields: [{ field: 'url', detail: source }] });
  const iso = {
    id: randomUUID(),
    instanceId: instance.id,
    userId: instance.user_id,
    hypervisorId: instance.hypervisor_id,
    name: request.name,
    url: source.url,
  };
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (!(await insertIsoWithin(trx, iso, config.MAX_ISOS_PER_INSTANCE)))
        throw new ApiError('SVC-QUOTA-409', {
          detail: `An instance’s library holds at most ${config.MAX_ISOS_PER_INSTANCE} ISOs.`,
        });
      const added = { id: iso.id, instance_id: iso.instanceId, user_id: iso.userId, name: iso.name };
      await recordIsoActivity(trx, asker, 'iso.added', added, request.correlationId, { url: iso.url });
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('SVC-CONFLICT-409', {
        detail: 'The instance’s library has an ISO of this name.',
        cause: error,
      });
    throw error;
  }
  try {
    await startWorkflow(deps, {
      type: 'fetchIso',
      workflowId: isoFetchWorkflowId(iso.id),
      input: {
        hypervisorId: iso.hypervisorId,
        fetch: {
          instance_id: iso.instanceId,
          iso_id: iso.id,
          url: iso.url,
          max_mb: config.ISO_MAX_SIZE_MB,
          allowed_networks: [...config.ISO_ALLOWED_NETWORKS],
        },
        correlationId: request.correlationId,
        timing: stepTiming(config),
      },
      searchAttributes: { instance: iso.instanceId, hypervisor: iso.hypervisorId },
      correlationId: request.correlationId,
    });
  } catch (error) {
    // Nothing was acknowledged: the ISO goes again, and the customer adds it again.
    await deleteIso(deps.db, iso.id);
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  return (await findIso(deps.db, iso.id))!;
}

/** An ISO an asker may act on: one of a customer's own libraries, any for an administrator; 404 otherwise. */
export async function isoInReach(db: Database, asker: Asker, isoId: string): Promise<IsoRow> {
  const iso = await findIso(db, isoId);
  if (!iso || (asker.type === 'user' && iso.user_id !== asker.userId)) throw notFound();
  return iso;
}

/** A line in the ISO's instance's activity log, whoever acted. */
export function recordIsoActivity(
  db: Database,
  asker: Asker,
  event: string,
  iso: Pick<IsoRow, 'id' | 'instance_id' | 'user_id' | 'name'>,
  correlationId: string | null,
  detail: Record<string, unknown> = {},
): Promise<void> {
  return recordActivity(db, {
    instanceId: iso.instance_id,
    userId: iso.user_id,
    actor: actorName(asker),
    event,
    detail: { iso_id: iso.id, name: iso.name, ...detail },
    correlationId,
  });
}
