import type { Database } from '../../db/database.js';
import { findLocationByCode, findPlanByCode, findPublicImageByCode } from '../../db/repositories/catalog.js';
import {
  findInstance,
  type Instance,
  insertInstance,
  setInstancePassword,
  setInstanceSshKeys,
  setPrimaryAddresses,
} from '../../db/repositories/instances.js';
import { allocateAddress } from '../../db/repositories/ip-addresses.js';
import { lockCandidate, placementCandidates, reserveCapacity } from '../../db/repositories/placement.js';
import { hitRateLimit } from '../../db/repositories/rate-limits.js';
import { findSshKeysOfUser } from '../../db/repositories/ssh-keys.js';
import type { Actor } from '../../domain/actors.js';
import type { Resources } from '../../domain/capacity.js';
import { ApiError } from '../../domain/errors.js';
import { fits, noPlacementDetail, placementFor } from '../../domain/placement.js';
import type { ServiceDeps } from '../context.js';
import { type IdempotentAnswer, idempotently, requestHash } from '../idempotency.js';
import { launchOperation, recordPlannedOperation } from './operations.js';
import { planProvisioning } from './provision.js';

export interface CreateInstanceRequest {
  readonly name: string;
  readonly hostname: string;
  readonly plan: string;
  readonly image: string;
  readonly location: string;
  readonly sshKeyIds: readonly string[];
  readonly timezone: string;
  /**
   * Restore as a new instance: the disk is written from this backup rather than the image (which
   * is still recorded as the instance's); the plan's disk must be at least `minDiskMb`.
   */
  readonly source?: { backupId: string; checksum: string; minDiskMb: number };
}

export interface CreateContext {
  readonly idempotencyKey: string | undefined;
  /** The request's method, path and body, whose hash an Idempotency-Key is bound to. */
  readonly fingerprint: { method: string; path: string; body: unknown };
  readonly correlationId: string | null;
}

/** Headers a caller of creation should see: the rate limit's state. */
export interface CreateOutcome<T> extends IdempotentAnswer<T> {
  readonly rateLimit?: { limit: number; remaining: number; resetSeconds: number };
}

const CREATE_WINDOW_MS = 60_000;

/**
 * Creates an instance for a customer (DESIGN.md "Data flow of one request"): idempotency check,
 * rate limit, then in one transaction the placement on a hypervisor with free capacity, the
 * reservation, the addresses, the instance row, its SSH keys and sealed password, the
 * provisioning operation and the stored answer; after the commit, the workflow start. The answer
 * is stored under the Idempotency-Key in the same transaction, so a start lost to a crash is
 * made by the reconciler rather than refused: the creation was promised.
 */
export async function createInstance<T>(
  deps: ServiceDeps,
  actor: Extract<Actor, { type: 'user' }>,
  request: CreateInstanceRequest,
  context: CreateContext,
  answer: (instance: Instance) => T,
): Promise<CreateOutcome<T>> {
  let rateLimit: CreateOutcome<T>['rateLimit'];
  try {
    const outcome = await idempotently<T>(
      deps.db,
      {
        userId: actor.userId,
        key: context.idempotencyKey,
        hash: requestHash(context.fingerprint.method, context.fingerprint.path, context.fingerprint.body),
      },
      async (remember) => {
        // What the request names is checked first, reading only: a request refused here counts
        // against no limit and changes nothing.
        const [plan, image, location] = await Promise.all([
          findPlanByCode(deps.db, request.plan),
          findPublicImageByCode(deps.db, request.image),
          findLocationByCode(deps.db, request.location),
        ]);
        const unknown = [
          plan ? undefined : { field: 'plan', detail: 'No such plan.' },
          image ? undefined : { field: 'image', detail: 'No such image.' },
          location ? undefined : { field: 'location', detail: 'No such location.' },
        ].filter((f) => f !== undefined);
        if (!plan || !image || !location) throw new ApiError('SVC-REQ-400', { fields: unknown });
        if (request.source && plan.disk_mb < request.source.minDiskMb) {
          throw new ApiError('SVC-REQ-400', {
            fields: [
              {
                field: 'plan',
                detail: `The backup needs a disk of at least ${request.source.minDiskMb} MB.`,
              },
            ],
          });
        }
        if (plan.disk_mb < image.min_disk_mb) {
          throw new ApiError('SVC-REQ-400', {
            fields: [
              { field: 'image', detail: `The image needs a disk of at least ${image.min_disk_mb} MB.` },
            ],
          });
        }
        const keys = await findSshKeysOfUser(deps.db, actor.userId, request.sshKeyIds);
        if (keys.length !== new Set(request.sshKeyIds).size) {
          throw new ApiError('SVC-REQ-400', { fields: [{ field: 'ssh_keys', detail: 'No such SSH key.' }] });
        }

        const limit = deps.config.INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE;
        const verdict = await hitRateLimit(deps.db, {
          key: `instance-create:${actor.userId}`,
          limit,
          windowMs: CREATE_WINDOW_MS,
        });
        rateLimit = { limit, remaining: verdict.remaining, resetSeconds: verdict.resetSeconds };
        if (!verdict.allowed) {
          throw new ApiError('SVC-REQ-429', {
            detail: `At most ${limit} instances may be created per minute.`,
            headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
          });
        }

        const need: Resources = {
          cpu_cores: plan.cpu_cores,
          memory_mb: plan.memory_mb,
          disk_mb: plan.disk_mb,
        };
        const { instance, launch } = await deps.db.transaction().execute(async (trx) => {
          const hypervisorId = await place(trx, location, need);
          const row = await insertInstance(trx, {
            user_id: actor.userId,
            location_id: location.id,
            hypervisor_id: hypervisorId,
            plan_id: plan.id,
            image_id: image.id,
            name: request.name,
            hostname: request.hostname,
            status: 'provisioning',
            cpu_cores: plan.cpu_cores,
            memory_mb: plan.memory_mb,
            disk_mb: plan.disk_mb,
            primary_ipv4: null,
            primary_ipv6: null,
            virtualization: 'kvm',
            boot_order: JSON.stringify(['disk', 'cdrom']),
            timezone: request.timezone,
            source_backup_id: request.source?.backupId ?? null,
          });
          await reserveCapacity(trx, {
            hypervisorId,
            instanceId: row.id,
            purpose: 'instance',
            resources: need,
          });
          const ipv4 = await allocateAddress(trx, {
            locationId: location.id,
            family: 4,
            instanceId: row.id,
            userId: actor.userId,
          });
          if (!ipv4)
            throw new ApiError('SVC-IP-409', {
              detail: `Location ${location.code} has no free IPv4 address left.`,
            });
          const ipv6 = await allocateAddress(trx, {
            locationId: location.id,
            family: 6,
            instanceId: row.id,
            userId: actor.userId,
          });
          await setPrimaryAddresses(trx, row.id, { ipv4, ipv6: ipv6 ?? null });
          await setInstanceSshKeys(trx, row.id, keys);

          const placed = { ...row, primary_ipv4: ipv4, primary_ipv6: ipv6 ?? null };
          const { plan: provisioning, sealedPassword } = await planProvisioning(
            deps,
            trx,
            placed,
            image.code,
            context.correlationId,
            request.source && { backup_id: request.source.backupId, checksum: request.source.checksum },
          );
          const begun = await recordPlannedOperation(trx, actor, provisioning);
          await setInstancePassword(trx, row.id, sealedPassword, deps.config.INITIAL_PASSWORD_WINDOW_MS);
          const created = (await findInstance(trx, row.id))!;
          await remember(trx, 202, answer(created));
          return { instance: created, launch: () => launchOperation(deps, provisioning, begun, 'leave') };
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

/** A refusal after the rate limit was counted still tells the caller where the limit stands. */
function withRateLimitHeaders(error: unknown, state: CreateOutcome<unknown>['rateLimit']): unknown {
  if (!(error instanceof ApiError) || !state) return error;
  return new ApiError(error.code, {
    detail: error.detail,
    fields: error.fields,
    cause: error.cause,
    headers: { ...error.headers, ...rateLimitHeaders(state) },
  });
}

/**
 * Picks the hypervisor and holds it: the candidates ranked without locks, then the first one that
 * still fits once locked (a concurrent create may have taken its room in between).
 */
async function place(
  trx: Database,
  location: { id: string; code: string },
  need: Resources,
): Promise<string> {
  const verdict = placementFor(await placementCandidates(trx, location.id), need);
  if (!verdict.ok) {
    throw new ApiError('SVC-PLACEMENT-409', { detail: noPlacementDetail(location.code, verdict.reasons) });
  }
  for (const hypervisorId of verdict.hypervisorIds) {
    const locked = await lockCandidate(trx, hypervisorId);
    if (locked && locked.status === 'online' && !locked.maintenance && fits(locked, need))
      return hypervisorId;
  }
  throw new ApiError('SVC-PLACEMENT-409', {
    detail: noPlacementDetail(location.code, {
      offline: 0,
      maintenance: 0,
      capacity: verdict.hypervisorIds.length,
    }),
  });
}

/** The IETF draft's RateLimit fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(state: { limit: number; remaining: number; resetSeconds: number }) {
  return {
    'RateLimit-Policy': `"instance-create";q=${state.limit};w=${CREATE_WINDOW_MS / 1000}`,
    RateLimit: `"instance-create";r=${state.remaining};t=${state.resetSeconds}`,
  };
}
