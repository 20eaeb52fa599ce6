import type { Resources } from '../capacity.js';
import type { HostRequirement } from '../instances/host-requirements.js';
import {
  type Finding,
  MOVE_WARNINGS,
  type MovePolicy,
  strategyFor,
  strategyWarnings,
  transferWarnings,
} from '../moves/preflight.js';
import { fits } from '../placement.js';
import { type GroupSpread, groupForbids, groupHolds } from '../placement-groups.js';
import type { MigrationMode, MigrationStrategy } from './states.js';

// The API, the schema and the evacuations read findings as the migration preflight gives them.
export type { Finding };

/**
 * Migration compatibility and preflight (SPEC.md §3 "Migration modes" and §7 rule 5): pure rules
 * over facts the caller read. Every blocker and every warning is returned, not the first only,
 * each with a stable code.
 */
export const BLOCKERS = {
  HOST_BOUND_CPU_PASSTHROUGH: 'The instance uses CPU host-passthrough, which binds it to its host.',
  HOST_BOUND_GPU_PASSTHROUGH: 'The instance has a GPU passed through from its host.',
  HOST_BOUND_PCI_PASSTHROUGH: 'The instance has a PCI device passed through from its host.',
  HOST_BOUND_NUMA: 'The instance needs strict NUMA pinning on its host.',
  HOST_BOUND_HUGEPAGES: 'The instance needs hugepages reserved on its host.',
  INSTANCE_NOT_PLACED: 'The instance is not on a hypervisor.',
  INSTANCE_NOT_MIGRATABLE: 'The instance is not running or stopped.',
  INSTANCE_BUSY: 'Another operation is in progress on the instance.',
  INSTANCE_MIGRATING: 'A migration holds the instance’s lease.',
  ISO_MOUNTED:
    'An ISO of the instance’s library is in its CD-ROM drive; the library stays on its hypervisor, so unmount it first.',
  SOURCE_BUSY:
    'The source hypervisor has as many moves out under way as MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR allows.',
  TARGET_IS_SOURCE: 'The target is the instance’s current hypervisor.',
  TARGET_IN_MAINTENANCE: 'The target hypervisor is in maintenance.',
  TARGET_UNREACHABLE: 'The target hypervisor’s agent is not online.',
  TARGET_INSUFFICIENT_CAPACITY: 'The target lacks the free CPU, memory or disk the instance needs.',
  ARCHITECTURE_MISMATCH: 'The target’s CPU architecture differs from the source’s.',
  VIRTUALIZATION_MISMATCH: 'The target runs another kind of virtualization.',
  STORAGE_NOT_REACHABLE:
    'The storage backend of the instance or of one of its volumes is not reachable from the target.',
  NETWORK_NOT_REACHABLE: 'The instance’s networks do not reach the target (another location).',
  LIVE_NOT_SUPPORTED: 'LIVE_REQUIRED, but the target does not advertise live_migration.',
  PLACEMENT_GROUP_SPREAD:
    'Another instance of the instance’s spread placement group is on the target (or moving there).',
  NO_TARGET: 'No hypervisor can take the instance.',
} as const;
export type BlockerCode = keyof typeof BLOCKERS;
export const BLOCKER_CODES = Object.keys(BLOCKERS) as [BlockerCode, ...BlockerCode[]];

/** The warnings every move gives (domain/moves/preflight.ts), and the one of a change of host. */
export const WARNINGS = {
  LIVE_FALLBACK_TO_COLD: MOVE_WARNINGS.LIVE_FALLBACK_TO_COLD,
  COLD_MOVE_STOPS_INSTANCE: MOVE_WARNINGS.COLD_MOVE_STOPS_INSTANCE,
  SAME_IP_INTERRUPTION:
    'The instance keeps its addresses; the network is briefly interrupted while routes move.',
  LONG_TRANSFER: MOVE_WARNINGS.LONG_TRANSFER,
  RETAINED_COPY_REPLACED:
    'The target still holds the copy an earlier migration of the instance retains; it is kept beside the arriving one and removed when this migration commits.',
} as const;
export type WarningCode = keyof typeof WARNINGS;
export const WARNING_CODES = Object.keys(WARNINGS) as [WarningCode, ...WarningCode[]];

/** The blocker each host requirement makes. */
const HOST_BOUND: Record<HostRequirement, BlockerCode> = {
  cpu_host_passthrough: 'HOST_BOUND_CPU_PASSTHROUGH',
  gpu_passthrough: 'HOST_BOUND_GPU_PASSTHROUGH',
  pci_passthrough: 'HOST_BOUND_PCI_PASSTHROUGH',
  numa_pinning: 'HOST_BOUND_NUMA',
  hugepages: 'HOST_BOUND_HUGEPAGES',
};

export interface InstanceFacts {
  readonly status: string;
  readonly placed: boolean;
  readonly operationRunning: boolean;
  readonly leaseHeld: boolean;
  /** The hypervisors still holding a copy an earlier, committed migration retains (its old source). */
  readonly retainedOn: readonly string[];
  readonly hostRequirements: readonly HostRequirement[];
  readonly storageBackend: string;
  /** Its own CPU, memory and root disk. */
  readonly resources: Resources;
  /** The customer's volumes on it, which move with it: their disks and their backends. */
  readonly volumes: { readonly diskMb: number; readonly backends: readonly string[] };
  /** Whether an ISO is in its CD-ROM drive. */
  readonly isoMounted: boolean;
  /** Its placement group, with the hosts its other members hold; null: none. */
  readonly placementGroup: GroupSpread | null;
}

export interface HypervisorFacts {
  readonly id: string;
  readonly name: string;
  readonly locationId: string;
  readonly status: string;
  readonly maintenance: boolean;
  readonly capabilities: readonly string[];
  readonly storageBackends: readonly string[];
  readonly architecture: string;
  readonly virtualization: string;
  readonly total: Resources;
  readonly reserved: Resources;
  /** Its outbound migration bandwidth budget, shared by its moves (bandwidth-budget.ts); absent or null: none. */
  readonly outboundBandwidthMbps?: number | null;
}

/** What the target must have room for: the instance, its volumes' disks included. */
export const resourcesMoving = (instance: InstanceFacts): Resources => ({
  ...instance.resources,
  disk_mb: instance.resources.disk_mb + instance.volumes.diskMb,
});

/** What keeps the instance itself from moving, wherever it goes. */
export function instanceBlockers(instance: InstanceFacts): Finding<BlockerCode>[] {
  const found: BlockerCode[] = [];
  for (const need of instance.hostRequirements) {
    const code = HOST_BOUND[need];
    if (code) found.push(code);
  }
  if (!instance.placed) found.push('INSTANCE_NOT_PLACED');
  if (instance.status !== 'running' && instance.status !== 'stopped' && !instance.leaseHeld)
    found.push('INSTANCE_NOT_MIGRATABLE');
  if (instance.leaseHeld) found.push('INSTANCE_MIGRATING');
  else if (instance.operationRunning) found.push('INSTANCE_BUSY');
  if (instance.isoMounted) found.push('ISO_MOUNTED');
  return found.map((code) => ({ code, detail: BLOCKERS[code] }));
}

/** What keeps the instance from moving to this target, in this mode. */
export function targetBlockers(
  instance: InstanceFacts,
  source: HypervisorFacts,
  target: HypervisorFacts,
  mode: MigrationMode,
  policy: MovePolicy,
): Finding<BlockerCode>[] {
  const found: BlockerCode[] = [];
  if (target.id === source.id) found.push('TARGET_IS_SOURCE');
  if (target.maintenance) found.push('TARGET_IN_MAINTENANCE');
  if (target.status !== 'online') found.push('TARGET_UNREACHABLE');
  if (target.id !== source.id && !fits(target, resourcesMoving(instance)))
    found.push('TARGET_INSUFFICIENT_CAPACITY');
  if (target.architecture !== source.architecture) found.push('ARCHITECTURE_MISMATCH');
  if (target.virtualization !== source.virtualization) found.push('VIRTUALIZATION_MISMATCH');
  if (
    ![instance.storageBackend, ...instance.volumes.backends].every((b) => target.storageBackends.includes(b))
  )
    found.push('STORAGE_NOT_REACHABLE');
  if (target.locationId !== source.locationId) found.push('NETWORK_NOT_REACHABLE');
  if (strategyFor(mode, target.capabilities.includes('live_migration'), policy) === undefined)
    found.push('LIVE_NOT_SUPPORTED');
  // docs/api.md "Placement groups": a move may not put two of a spread group on one host either.
  if (groupForbids(instance.placementGroup, target.id)) found.push('PLACEMENT_GROUP_SPREAD');
  return found.map((code) => ({ code, detail: BLOCKERS[code] }));
}

export function warningsFor(
  instance: InstanceFacts,
  target: { id: string },
  mode: MigrationMode,
  strategy: MigrationStrategy,
  policy: MovePolicy,
): Finding<WarningCode>[] {
  return [
    ...strategyWarnings(mode, strategy, instance.status),
    // Addresses stay with the instance: a cross-node move of the same IPs is not atomic.
    { code: 'SAME_IP_INTERRUPTION', detail: WARNINGS.SAME_IP_INTERRUPTION },
    ...transferWarnings(resourcesMoving(instance).disk_mb, policy),
    // A move back at once (docs/migration.md): the safety copy stays until this move commits.
    ...(instance.retainedOn.includes(target.id)
      ? [{ code: 'RETAINED_COPY_REPLACED' as const, detail: WARNINGS.RETAINED_COPY_REPLACED }]
      : []),
  ];
}

export interface PreflightReport {
  readonly ok: boolean;
  readonly mode: MigrationMode;
  readonly target: { id: string; name: string } | null;
  readonly strategy: MigrationStrategy | null;
  readonly blockers: Finding<BlockerCode>[];
  readonly warnings: Finding<WarningCode>[];
  /** The strategy each mode would use with the chosen target (null: that mode cannot be met). */
  readonly strategies: Record<MigrationMode, MigrationStrategy | null>;
  readonly candidates: { id: string; name: string; strategy: MigrationStrategy; free_memory_mb: number }[];
  readonly rejected: { id: string; name: string; reasons: Finding<BlockerCode>[] }[];
}

const freeMemory = (h: HypervisorFacts) => h.total.memory_mb - h.reserved.memory_mb;

/**
 * The preflight of a migration: the instance's own blockers, then every other hypervisor of the
 * plane judged as a target (ranked: live-capable first where the mode wants live, then those no
 * other member of its soft placement group holds, then most free memory), and for the requested target (or the best candidate) its blockers, warnings and the
 * strategy of each mode.
 */
export function preflight(input: {
  instance: InstanceFacts;
  source: HypervisorFacts;
  hypervisors: readonly HypervisorFacts[];
  mode: MigrationMode;
  targetId?: string;
  policy: MovePolicy;
}): PreflightReport {
  const { instance, source, mode, policy } = input;
  const own = instanceBlockers(instance);
  const judged = input.hypervisors
    .filter((h) => h.id !== source.id)
    .map((h) => ({ h, reasons: targetBlockers(instance, source, h, mode, policy) }));
  // A soft group's member hosts are taken last (a spread group's were rejected above).
  const groupHeld = (id: string) => (groupHolds(instance.placementGroup, id) ? 1 : 0);
  const candidates = judged
    .filter((j) => j.reasons.length === 0)
    .map(({ h }) => ({
      id: h.id,
      name: h.name,
      strategy: strategyFor(mode, h.capabilities.includes('live_migration'), policy)!,
      free_memory_mb: freeMemory(h),
    }))
    .sort(
      (a, b) =>
        (a.strategy === b.strategy ? 0 : a.strategy === 'live' ? -1 : 1) ||
        groupHeld(a.id) - groupHeld(b.id) ||
        b.free_memory_mb - a.free_memory_mb ||
        a.id.localeCompare(b.id),
    );
  const rejected = judged
    .filter((j) => j.reasons.length > 0)
    .map(({ h, reasons }) => ({ id: h.id, name: h.name, reasons }));

  const requested = input.targetId
    ? ([source, ...input.hypervisors].find((h) => h.id === input.targetId) ?? null)
    : null;
  const target = input.targetId
    ? requested
    : (input.hypervisors.find((h) => h.id === candidates[0]?.id) ?? null);
  const blockers = [...own];
  if (input.targetId && !requested) blockers.push({ code: 'NO_TARGET', detail: 'No such hypervisor.' });
  else if (!target) blockers.push({ code: 'NO_TARGET', detail: BLOCKERS.NO_TARGET });
  else blockers.push(...targetBlockers(instance, source, target, mode, policy));

  const live = target?.capabilities.includes('live_migration') ?? false;
  const strategy = target ? (strategyFor(mode, live, policy) ?? null) : null;
  const strategies = Object.fromEntries(
    (['LIVE_REQUIRED', 'LIVE_IF_POSSIBLE', 'AUTO', 'COLD'] as const).map((m) => [
      m,
      target ? (strategyFor(m, live, policy) ?? null) : null,
    ]),
  ) as Record<MigrationMode, MigrationStrategy | null>;
  return {
    ok: blockers.length === 0,
    mode,
    target: target ? { id: target.id, name: target.name } : null,
    strategy,
    blockers,
    warnings: target && strategy ? warningsFor(instance, target, mode, strategy, policy) : [],
    strategies,
    candidates,
    rejected,
  };
}
