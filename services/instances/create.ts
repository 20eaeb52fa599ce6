import type { Database } from '../../db/database.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { findSshKeysOfUser } from '../../db/repositories/accounts/ssh-keys.js';
import { findUser } from '../../db/repositories/accounts/users.js';
import {
  findImageByCode,
  findLocationByCode,
  findPlanByCode,
} from '../../db/repositories/catalogue/catalog.js';
import { setInstanceUserData } from '../../db/repositories/instances/instance-user-data.js';
import {
  findInstance,
  type Instance,
  insertInstance,
  setInstancePassword,
  setInstanceSshKeys,
} from '../../db/repositories/instances/instances.js';
import type { Asker } from '../../domain/actors.js';
import type { Resources } from '../../domain/capacity.js';
import { ApiError } from '../../domain/errors.js';
import { INSTANCE_BOOT_ORDER } from '../../domain/instances/statuses.js';
import type { ServiceDeps } from '../context.js';
import { type IdempotentAnswer, idempotently, requestHash } from '../idempotency.js';
import { imageSourceIn } from '../images/sources.js';
import { bornWithFirewallDefaults } from '../networks/firewall-defaults.js';
import { holdQuotas, refuseOverQuota } from '../quotas.js';
import { countCreation, type RateLimitState, withRateLimitHeaders } from './create-limits.js';
import { externalIdTakenBy, refuseTakenExternalId } from './external-id.js';
import { launchOperation, recordPlannedOperation } from './operations.js';
import { holdResources, place } from './placement.js';
import { placementGroupOf, spreadUnderLock } from './placement-groups.js';
import { planProvisioning } from './provision.js';
import { acceptUserData } from './user-data.js';

export interface CreateInstanceRequest {
  /** The user the instance is for: the customer asking, or the one an administrator names. */
  readonly ownerId: string;
  readonly name: string;
  readonly hostname: string;
  readonly plan: string;
  readonly image: string;
  readonly location: string;
  readonly sshKeyIds: readonly string[];
  readonly timezone: string;
  /** The customer's cloud-init user-data, base64 (docs/api.md "User-data"); none when absent. */
  readonly userData?: string | undefined;
  /**
   * Restore as a new instance: the disk is written from this backup rather than the image (which
   * is still recorded as the instance's); the plan's disk must be at least `minDiskMb`.
   */
  readonly source?: { backupId: string; checksum: string; minDiskMb: number };
  /** A billing system's own id for the instance, an administrator's order only; none when absent. */
  readonly externalId?: string | null;
  /** The owner's placement group, of the same location, to place it by (docs/api.md "Placement groups"). */
  readonly placementGroupId?: string | undefined;
}

export interface CreateContext {
  readonly idempotencyKey: string | undefined;
  /** The request's method, path and body, whose hash an Idempotency-Key is bound to. */
  readonly fingerprint: { method: string; path: string; body: unknown };
  readonly correlationId: string | null;
}

/** Headers a caller of creation should see: the rate limit's state. */
export interface CreateOutcome<T> extends IdempotentAnswer<T> {
  readonly rateLimit?: RateLimitState;
}

/** The catalogue entries an order names, each with the error of one deleted while it was ordered. */
const DELETED_MEANWHILE = [
  ['plan', 'No such plan.'],
  ['image', 'No such image.'],
  ['image_version', 'No such image.'],
  ['location', 'No such location.'],
] as const;

/**
 * Creates an instance, for the customer asking or by an administrator for a user (DESIGN.md "Data flow of one request"): idempotency check,
 * rate limit, then in one transaction the placement on a hypervisor with free capacity, the
 * reservation, the addresses, the instance row, its SSH keys and sealed password, the
 * provisioning operation and the stored answer; after the commit, the workflow start. The answer
 * is stored under the Idempotency-Key in the same transaction, so a start lost to a crash is
 * made by the reconciler rather than refused: the creation was promised. The Idempotency-Key
 * and the rate limit are the asker's; an administrator may order a private image.
 */
export async function createInstance<T>(
  deps: ServiceDeps,
  actor: Asker,
  request: CreateInstanceRequest,
  context: CreateContext,
  answer: (instance: Instance) => T,
): Promise<CreateOutcome<T>> {
  let rateLimit: RateLimitState | undefined;
  const { method, path, body } = context.fingerprint;
  try {
    const outcome = await idempotently<T>(
      deps.db,
      { userId: actor.userId, key: context.idempotencyKey, hash: requestHash(method, path, body) },
      async (remember) => {
        // What the request names is checked first, reading only: a request refused here counts
        // against no limit and changes nothing; so is one plainly past a quota of the owner (the
        // locked count in the transaction decides a race).
        const named = await resolveRequest(deps, actor, request);
        await refuseOverQuota(deps.db, request.ownerId, { instances: 1, ...resourcesOf(named.plan), ips: 1 });
        await countCreation(deps, actor.userId, (state) => {
          rateLimit = state;
        });
        const { instance, launch } = await deps.db
          .transaction()
          .execute(async (trx) => {
            const recorded = await recordInstance(deps, trx, actor, request, context, named);
            await remember(trx, 202, answer(recorded.instance));
            return recorded;
          })
          .catch((error: unknown) => {
            // Another order took the external id since it was checked.
            const taken = externalIdTakenBy(error);
            if (taken) throw taken;
            // A catalogue entry deleted between its lookup and the insert (the delete held its row).
            for (const [field, detail] of DELETED_MEANWHILE)
              if (isForeignKeyViolation(error, `instances_${field}_id_fkey`))
                throw new ApiError('SVC-REQ-400', {
                  fields: [{ field: field.replace('_version', ''), detail }],
                });
            throw error;
          });
        await launch();
        return { status: 202, body: answer(instance) };
      },
    );
    return { ...outcome, ...(rateLimit ? { rateLimit } : {}) };
  } catch (error) {
    throw withRateLimitHeaders(error, rateLimit);
  }
}

type Named = Awaited<ReturnType<typeof resolveRequest>>;

const resourcesOf = (plan: Resources): Resources => ({
  cpu_cores: plan.cpu_cores,
  memory_mb: plan.memory_mb,
  disk_mb: plan.disk_mb,
});

/** The user an administrator orders for: one that exists and is not disabled, else 400 naming `user`. */
async function usableOwner(deps: ServiceDeps, userId: string): Promise<void> {
  const owner = await findUser(deps.db, userId);
  if (!owner || owner.disabled_at)
    throw new ApiError('SVC-REQ-400', {
      fields: [{ field: 'user', detail: owner ? 'The user is disabled.' : 'No such user.' }],
    });
}

/** The plan, image, location and SSH keys the request names, or 400 with each field that names nothing. */
async function resolveRequest(deps: ServiceDeps, actor: Asker, request: CreateInstanceRequest) {
  if (actor.type === 'user' && request.ownerId !== actor.userId)
    throw new Error('a customer creates instances for themselves only');
  const [plan, image, location] = await Promise.all([
    findPlanByCode(deps.db, request.plan, actor.type === 'admin' ? 'all' : 'public'),
    findImageByCode(deps.db, request.image, actor.type === 'admin' ? 'all' : 'public'),
    findLocationByCode(deps.db, request.location),
    // A customer's own key proved them enabled; the user an administrator names is looked up.
    actor.type === 'admin' ? usableOwner(deps, request.ownerId) : undefined,
  ]);
  const unknown = [
    plan ? undefined : { field: 'plan', detail: 'No such plan.' },
    image ? undefined : { field: 'image', detail: 'No such image.' },
    location ? undefined : { field: 'location', detail: 'No such location.' },
  ].filter((f) => f !== undefined);
  if (!plan || !image || !location) throw new ApiError('SVC-REQ-400', { fields: unknown });
  // A plan kept to one location is sold there only, as it is changed to there only (resize).
  if (plan.location_id !== null && plan.location_id !== location.id)
    throw new ApiError('SVC-REQ-400', {
      fields: [{ field: 'plan', detail: `The plan is not offered in location ${location.code}.` }],
    });
  const tooSmall = (field: string, needMb: number, what: string) =>
    new ApiError('SVC-REQ-400', {
      fields: [{ field, detail: `${what} needs a disk of at least ${needMb} MB.` }],
    });
  if (request.source && plan.disk_mb < request.source.minDiskMb)
    throw tooSmall('plan', request.source.minDiskMb, 'The backup');
  if (plan.disk_mb < image.min_disk_mb) throw tooSmall('image', image.min_disk_mb, 'The image');
  await refuseTakenExternalId(deps, request.externalId);
  const keys = await findSshKeysOfUser(deps.db, request.ownerId, request.sshKeyIds);
  if (keys.length !== new Set(request.sshKeyIds).size)
    throw new ApiError('SVC-REQ-400', { fields: [{ field: 'ssh_keys', detail: 'No such SSH key.' }] });
  const userData = request.userData === undefined ? undefined : acceptUserData(deps, request.userData);
  const source = await imageSourceIn(deps, image, { locationId: location.id });
  const placementGroupId = await placementGroupOf(deps.db, request, location);
  return { plan, image, location, keys, userData, source, placementGroupId };
}

/**
 * Inside the creating transaction: the owner's quotas held and checked, the hypervisor placed and held, the instance row with its
 * addresses, SSH keys, sealed user-data, the provider's default firewall and sealed password, and its provisioning
 * operation recorded. Returns the
 * instance and the launch of its workflow, for after the commit.
 */
async function recordInstance(
  deps: ServiceDeps,
  trx: Database,
  actor: Asker,
  request: CreateInstanceRequest,
  context: CreateContext,
  { plan, image, location, keys, userData, source, placementGroupId }: Named,
) {
  const need = resourcesOf(plan);
  // The owner's quotas first, before the host's and the pools' locks (services/quotas.ts): an IPv4
  // address is always taken; an IPv6 one, where the location has a pool, is counted once taken.
  const checkQuotas = await holdQuotas(trx, request.ownerId);
  const order = { instances: 1, ...need };
  checkQuotas({ ...order, ips: 1 });
  const group = placementGroupId === null ? null : await spreadUnderLock(trx, placementGroupId);
  const hypervisorId = await place(trx, location, need, source.hypervisorIds, group);
  const row = await insertInstance(trx, {
    user_id: request.ownerId,
    location_id: location.id,
    hypervisor_id: hypervisorId,
    plan_id: plan.id,
    image_id: image.id,
    image_version_id: source.versionId,
    name: request.name,
    hostname: request.hostname,
    status: 'provisioning',
    ...need,
    primary_ipv4: null,
    primary_ipv6: null,
    virtualization: image.virtualization,
    boot_order: JSON.stringify(INSTANCE_BOOT_ORDER),
    timezone: request.timezone,
    source_backup_id: request.source?.backupId ?? null,
    external_id: request.externalId ?? null,
    host_requirements: JSON.stringify(plan.host_requirements),
    placement_group_id: placementGroupId,
  });
  const addresses = await holdResources(
    trx,
    { id: row.id, userId: request.ownerId, hypervisorId, location },
    need,
  );
  if (addresses.ipv6) checkQuotas({ ...order, ips: 2 });
  await setInstanceSshKeys(trx, row.id, keys);
  if (userData) await setInstanceUserData(trx, row.id, userData);
  await bornWithFirewallDefaults(trx, row.id);
  const { plan: provisioning, sealedPassword } = await planProvisioning(
    deps,
    trx,
    { ...row, primary_ipv4: addresses.ipv4, primary_ipv6: addresses.ipv6 },
    source.storeName,
    context.correlationId,
    request.source && { backup_id: request.source.backupId, checksum: request.source.checksum },
  );
  const begun = await recordPlannedOperation(trx, actor, provisioning);
  await setInstancePassword(trx, row.id, sealedPassword, deps.config.INITIAL_PASSWORD_WINDOW_MS);
  const instance = (await findInstance(trx, row.id))!;
  return { instance, launch: () => launchOperation(deps, provisioning, begun, 'leave') };
}
