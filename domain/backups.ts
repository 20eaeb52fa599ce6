import type { Verdict } from './errors.js';
import { text } from './input-bounds.js';

/**
 * Backups and snapshots of an instance (SPEC.md §3 rule 5 leaves their states open). A backup is
 * a copy of the instance's disk in its location's backup store, apart from the hypervisor; a
 * snapshot is a point-in-time image kept beside the disk on the hypervisor, and goes with it.
 *
 * Backup states:
 * - `creating`: the hypervisor is writing it (a `backup` operation runs);
 * - `available`: written, its size and content checksum recorded; it can be restored, verified,
 *   protected and deleted;
 * - `verifying`: its content is being read back and compared with the recorded checksum;
 * - `restoring`: an instance's disk is being restored from it in place;
 * - `deleting`: it is being removed from the store;
 * - `deleted`: gone (the row stays for the record; lists leave it out);
 * - `failed`: it could not be written (the error is kept; it holds no space);
 * - `corrupt`: its content no longer matches its checksum (verify, or a restore that checked it).
 *
 * Snapshot states are the same without `verifying` and `corrupt`: a snapshot's checksum is
 * checked when it is restored, and a mismatch fails that restore.
 *
 * The same lists are the CHECK constraints `instance_backups_state` and `instance_snapshots_state`
 * and the OpenAPI enums.
 */
export const BACKUP_STATES = [
  'creating',
  'available',
  'verifying',
  'restoring',
  'deleting',
  'deleted',
  'failed',
  'corrupt',
] as const;
export type BackupState = (typeof BACKUP_STATES)[number];

export const SNAPSHOT_STATES = [
  'creating',
  'available',
  'restoring',
  'deleting',
  'deleted',
  'failed',
] as const;
export type SnapshotState = (typeof SNAPSHOT_STATES)[number];

/** What a customer asks of one backup, and the states each may start from. */
export const BACKUP_ACTIONS = {
  restore: { from: ['available'], to: 'restoring' },
  // Restoring as a new instance reads the backup while the new instance is provisioned; the backup
  // stays available (a delete waits for that provisioning: see the repository's compare-and-set).
  restore_new: { from: ['available'], to: 'available' },
  // A corrupt backup may be checked again; it stays corrupt unless its content matches.
  verify: { from: ['available', 'corrupt'], to: 'verifying' },
  delete: { from: ['available', 'failed', 'corrupt'], to: 'deleting' },
} as const satisfies Record<string, { from: readonly BackupState[]; to: BackupState }>;
export type BackupAction = keyof typeof BACKUP_ACTIONS;

export const SNAPSHOT_ACTIONS = {
  restore: { from: ['available'], to: 'restoring' },
  delete: { from: ['available', 'failed'], to: 'deleting' },
} as const satisfies Record<string, { from: readonly SnapshotState[]; to: SnapshotState }>;
export type SnapshotAction = keyof typeof SNAPSHOT_ACTIONS;

/** Backup states that hold space in the store: what MAX_BACKUPS_PER_INSTANCE counts. */
export const BACKUP_STATES_COUNTED = [
  'creating',
  'available',
  'verifying',
  'restoring',
  'deleting',
  'corrupt',
] as const satisfies readonly BackupState[];

/** Snapshot states that hold space beside the disk: what MAX_SNAPSHOTS_PER_INSTANCE counts. */
export const SNAPSHOT_STATES_COUNTED = [
  'creating',
  'available',
  'restoring',
  'deleting',
] as const satisfies readonly SnapshotState[];

/** Why `action` may not be taken on a backup in `facts`, or ok. A protected backup is never deleted. */
export function mayActOnBackup(
  action: BackupAction,
  facts: { state: BackupState; protected: boolean },
): Verdict {
  if (action === 'delete' && facts.protected) {
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: 'The backup is protected; remove its protection first.',
    };
  }
  if (!(BACKUP_ACTIONS[action].from as readonly string[]).includes(facts.state)) {
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: `The backup cannot be used to ${action.replace('_', ' ')} while it is ${facts.state}.`,
    };
  }
  return { ok: true };
}

export function mayActOnSnapshot(action: SnapshotAction, facts: { state: SnapshotState }): Verdict {
  if (!(SNAPSHOT_ACTIONS[action].from as readonly string[]).includes(facts.state)) {
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: `The snapshot cannot be used to ${action} while it is ${facts.state}.`,
    };
  }
  return { ok: true };
}

/** Whether one more backup, snapshot or schedule fits under its per-instance limit. */
export function quotaVerdict(kind: 'backup' | 'snapshot' | 'schedule', held: number, limit: number): Verdict {
  if (held < limit) return { ok: true };
  const what = kind === 'schedule' ? 'backup schedules' : `${kind}s`;
  return {
    ok: false,
    code: 'SVC-QUOTA-409',
    detail: `The instance holds its limit of ${limit} ${what}; delete one first.`,
  };
}

/** Names of backups, snapshots and schedules: the customer's labels (made per use, so API layers can annotate it). */
export const artifactName = () => text({ max: 100, trim: true });

/** A default name: the kind and the moment, e.g. `backup 2026-11-22 09:00 UTC`. */
export const defaultArtifactName = (kind: string, at: Date) =>
  `${kind} ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/* ---------------------------------------------------------------------------------------------
 * Schedules (backup policies) and their retention.
 * ------------------------------------------------------------------------------------------- */

/**
 * Backups more often than hourly would turn the store into a disk mirror: an interval is at least
 * an hour, and a cron expression names one minute of the hour.
 */
export const INTERVAL_MINUTES_MIN = 60;
export const INTERVAL_MINUTES_MAX = 31 * 24 * 60;
export const KEEP_DAYS_MAX = 3650;

const CRON_FIELDS = [
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
] as const;

/** `*`, `n`, `a-b`, each optionally `/step`, comma-separated; numbers only (no names). */
function cronFieldProblem(field: string, bounds: { name: string; min: number; max: number }) {
  for (const part of field.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match)
      return `The ${bounds.name} field must be *, a number, a range or a list, with an optional /step.`;
    const [, , from, to, step] = match;
    const numbers = [from, to].filter((n) => n !== undefined).map(Number);
    if (numbers.some((n) => n < bounds.min || n > bounds.max))
      return `The ${bounds.name} field takes ${bounds.min} to ${bounds.max}.`;
    if (numbers.length === 2 && numbers[0]! > numbers[1]!)
      return `A range of the ${bounds.name} field must run upwards.`;
    if (step !== undefined && Number(step) < 1)
      return `A step of the ${bounds.name} field must be at least 1.`;
  }
  return undefined;
}

/**
 * Why a cron expression (five fields, UTC) is not accepted, or undefined: the minute is one number
 * (at most one backup an hour); the other fields take numbers, ranges, lists and steps.
 */
export function cronProblem(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) return 'Must be five fields: minute hour day-of-month month day-of-week.';
  const [minute, ...rest] = fields;
  if (!/^\d{1,2}$/.test(minute!) || Number(minute) > 59)
    return 'The minute field must be one number from 0 to 59: at most one backup an hour.';
  for (const [i, field] of rest.entries()) {
    const problem = cronFieldProblem(field, CRON_FIELDS[i]!);
    if (problem) return problem;
  }
  return undefined;
}

export interface RetentionRule {
  /** The schedule's newest available backups kept; older ones are removed. */
  readonly keepLast: number;
  /** Backups older than this many days are removed, however few remain; null: no age limit. */
  readonly keepDays: number | null;
}

export interface RetentionCandidate {
  readonly id: string;
  readonly state: BackupState;
  readonly protected: boolean;
  readonly createdAt: Date;
}

/**
 * The backups a schedule's retention removes, among those the schedule made. A protected backup is
 * outside retention: never removed, and not counted among those kept. Of the rest:
 * - by count: the `keepLast` newest `available` ones are kept, older available ones removed;
 * - by age: any `available` one older than `keepDays` days is removed;
 * - `failed` and `corrupt` ones are removed at once: they restore nothing and would otherwise pile
 *   up (their failure stays in the instance's task history and activity log);
 * - anything in progress (creating, verifying, restoring, deleting) is left alone.
 */
export function retentionVictims(
  backups: readonly RetentionCandidate[],
  rule: RetentionRule,
  now: Date,
): string[] {
  const oldest = rule.keepDays === null ? null : now.getTime() - rule.keepDays * 86_400_000;
  const eligible = backups.filter((b) => !b.protected);
  const available = eligible
    .filter((b) => b.state === 'available')
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  const victims = new Set<string>();
  for (const [rank, backup] of available.entries()) {
    if (rank >= rule.keepLast) victims.add(backup.id);
    if (oldest !== null && backup.createdAt.getTime() < oldest) victims.add(backup.id);
  }
  for (const backup of eligible)
    if (backup.state === 'failed' || backup.state === 'corrupt') victims.add(backup.id);
  return [...victims];
}

/** Readable ids in the Temporal UI (DESIGN.md: the schedules visible under readable ids). */
export const backupScheduleId = (instanceId: string, policyId: string) =>
  `backup-schedule-${instanceId}-${policyId}`;

/** What a schedule's run did, as recorded on the schedule and shown to the customer. */
export const SCHEDULE_RUN_OUTCOMES = ['backed_up', 'failed', 'skipped'] as const;
export type ScheduleRunOutcome = (typeof SCHEDULE_RUN_OUTCOMES)[number];
