import { type HypervisorFacts, type InstanceFacts, instanceBlockers } from '../migrations/preflight.js';
import {
  type Finding,
  type MovePolicy,
  type MoveWarningCode,
  strategyFor,
  strategyWarnings,
  transferWarnings,
} from '../moves/preflight.js';
import type { MoveMode, MoveStrategy } from '../moves/states.js';
import { fits } from '../placement.js';

/** What keeps an instance's disks from moving to another backend; every one is reported. */
export const STORAGE_BLOCKERS = {
  INSTANCE_NOT_PLACED: 'The instance is not on a hypervisor.',
  INSTANCE_NOT_MIGRATABLE: 'The instance is not running or stopped.',
  INSTANCE_BUSY: 'Another operation is in progress on the instance.',
  INSTANCE_MIGRATING: 'A migration or storage move holds the instance’s lease.',
  SAME_BACKEND: 'The disks are on that backend already.',
  NOTHING_ON_BACKEND: 'None of the instance’s disks is on the backend to move from.',
  BACKEND_NOT_REACHABLE: 'The instance’s hypervisor does not reach the backend to move to.',
  HYPERVISOR_UNREACHABLE: 'The instance’s hypervisor’s agent is not online.',
  INSUFFICIENT_CAPACITY:
    'The hypervisor lacks the free disk for the new copies (the old ones are kept for the retention window).',
  LIVE_NOT_SUPPORTED: 'LIVE_REQUIRED, but the hypervisor does not advertise live_migration.',
} as const;
export type StorageBlockerCode = keyof typeof STORAGE_BLOCKERS;
export const STORAGE_BLOCKER_CODES = Object.keys(STORAGE_BLOCKERS) as [
  StorageBlockerCode,
  ...StorageBlockerCode[],
];

/** One of the instance's disks: `root` or `volume-<uuid>` (domain/migrations/disks.ts). */
export interface DiskFacts {
  readonly disk: string;
  readonly backend: string;
  readonly sizeMb: number;
}

export interface StorageMoveReport {
  readonly ok: boolean;
  readonly mode: MoveMode;
  readonly strategy: MoveStrategy | null;
  /** The disks that would move: those on `from`. */
  readonly disks: DiskFacts[];
  readonly blockers: Finding<StorageBlockerCode>[];
  readonly warnings: Finding<MoveWarningCode>[];
}

const INSTANCE_CODES: readonly StorageBlockerCode[] = [
  'INSTANCE_NOT_PLACED',
  'INSTANCE_NOT_MIGRATABLE',
  'INSTANCE_BUSY',
  'INSTANCE_MIGRATING',
];

/**
 * The preflight of a storage move: the instance's own state (what is bound to its host does not
 * matter, it stays there), the backends, the hypervisor's agent, room for the new copies, and the
 * strategy the mode gives with the hypervisor's capabilities.
 */
export function storageMovePreflight(input: {
  instance: InstanceFacts;
  hypervisor: HypervisorFacts | undefined;
  disks: readonly DiskFacts[];
  from: string;
  to: string;
  mode: MoveMode;
  policy: MovePolicy;
}): StorageMoveReport {
  const { instance, hypervisor, from, to, mode, policy } = input;
  const found: StorageBlockerCode[] = instanceBlockers(instance).flatMap(({ code }) =>
    (INSTANCE_CODES as readonly string[]).includes(code) ? [code as StorageBlockerCode] : [],
  );
  const disks = input.disks.filter((d) => d.backend === from);
  const sizeMb = disks.reduce((sum, d) => sum + d.sizeMb, 0);
  if (from === to) found.push('SAME_BACKEND');
  else if (disks.length === 0) found.push('NOTHING_ON_BACKEND');
  const live = hypervisor?.capabilities.includes('live_migration') ?? false;
  const strategy = hypervisor ? (strategyFor(mode, live, policy) ?? null) : null;
  if (hypervisor) {
    if (!hypervisor.storageBackends.includes(to)) found.push('BACKEND_NOT_REACHABLE');
    if (hypervisor.status !== 'online') found.push('HYPERVISOR_UNREACHABLE');
    if (!fits(hypervisor, { cpu_cores: 0, memory_mb: 0, disk_mb: sizeMb }))
      found.push('INSUFFICIENT_CAPACITY');
    if (strategy === null) found.push('LIVE_NOT_SUPPORTED');
  }
  const warnings = [
    ...(strategy ? strategyWarnings(mode, strategy, instance.status) : []),
    ...transferWarnings(sizeMb, policy),
  ];
  const blockers = [...new Set(found)].map((code) => ({ code, detail: STORAGE_BLOCKERS[code] }));
  return { ok: blockers.length === 0, mode, strategy, disks, blockers, warnings };
}
