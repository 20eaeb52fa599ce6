import type { EventType } from './catalogue.js';
import type { EventResource } from './definition.js';

/**
 * When a change of a resource's table is an event (docs/events.md "Recorded with the change"):
 * the rules the one recorder, `outbox_record_change()` (db/migrations/20261206T0300_outbox_recorder.ts),
 * runs on each table's trigger, given to it as the trigger's JSON argument. A rule fires on its
 * operation when one of its `columns` changed, the first from a value in `from` to one in `to`
 * (each when given). A test holds every trigger's rules equal to these. Instances' statuses and
 * suspension, operations and endpoints keep the triggers they were first recorded by
 * (INSTANCE_STATUS_EVENTS beside the catalogue).
 */
export interface OutboxRule {
  readonly type: EventType;
  readonly on: 'INSERT' | 'UPDATE' | 'DELETE';
  readonly columns?: readonly string[];
  readonly from?: readonly string[];
  readonly to?: readonly string[];
}

const entered = (type: EventType, column: string, to: readonly string[], from?: readonly string[]) =>
  ({ type, on: 'UPDATE', columns: [column], to, ...(from ? { from } : {}) }) as const satisfies OutboxRule;

export const OUTBOX_RULES = {
  instance: [{ type: 'instance.resized', on: 'UPDATE', columns: ['cpu_cores', 'memory_mb', 'disk_mb'] }],
  // Only the first writing counts: a verify or a restore that ends `available` again is no news.
  backup: [
    entered('backup.available', 'state', ['available'], ['creating']),
    entered('backup.failed', 'state', ['failed'], ['creating']),
  ],
  snapshot: [entered('snapshot.available', 'state', ['available'], ['creating'])],
  // An attach undone (attaching → available) and a resize ending are no news.
  volume: [
    { type: 'volume.created', on: 'INSERT' },
    entered('volume.attached', 'state', ['attached'], ['attaching']),
    entered('volume.detached', 'state', ['available'], ['attached', 'detaching']),
    { type: 'volume.deleted', on: 'DELETE' },
  ],
  console_session: [entered('console.session_ended', 'state', ['ended'])],
  // On the migration's history (migration_events), whose line is written with each state.
  migration: [
    { type: 'migration.requested', on: 'INSERT', columns: ['state'], to: ['REQUESTED'] },
    { type: 'migration.completed', on: 'INSERT', columns: ['state'], to: ['COMPLETED'] },
    { type: 'migration.rolled_back', on: 'INSERT', columns: ['state'], to: ['ROLLED_BACK'] },
    { type: 'migration.recovery_required', on: 'INSERT', columns: ['state'], to: ['RECOVERY_REQUIRED'] },
  ],
  evacuation: [
    { type: 'evacuation.started', on: 'INSERT' },
    entered('evacuation.paused', 'state', ['paused']),
    entered('evacuation.finished', 'state', ['completed', 'cancelled', 'failed']),
  ],
  hypervisor: [
    entered('hypervisor.unreachable', 'status', ['unreachable']),
    entered('hypervisor.online', 'status', ['online']),
  ],
} as const satisfies Partial<Record<EventResource, readonly OutboxRule[]>>;
