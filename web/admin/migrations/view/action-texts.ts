import type { OperatorAction } from '../../../../domain/migrations/control.js';
import type { MigrationBody } from '../../../../wire/serializers/moves/migration.js';

type Migration = MigrationBody['attributes'];

interface ActionText {
  /** The button that asks for the confirmation. */
  readonly ask: string;
  /** What the action does to this migration, said before it is confirmed. */
  readonly does: (m: Migration) => string;
  /** The button that confirms. */
  readonly confirm: string;
  /** What the view says once the run took it. */
  readonly done: string;
}

/** Each operator action in words (docs/migration.md "Recovery"). */
export const ACTION_TEXTS: Record<OperatorAction, ActionText> = {
  cancel: {
    ask: 'Cancel the migration…',
    does: (m) =>
      `The migration stops and undoes its steps in reverse. The instance stays on ${m.source.name}, running again if the migration stopped it.`,
    confirm: 'Yes, cancel the migration',
    done: 'Cancel requested: the migration is rolling back.',
  },
  rollback: {
    ask: 'Roll back the migration…',
    does: (m) =>
      `The migration undoes its steps in reverse, recorded as rolled back by an operator. The instance stays on ${m.source.name}.`,
    confirm: 'Yes, roll it back',
    done: 'Rollback requested: the migration is rolling back.',
  },
  retry: {
    ask: 'Retry the failed step…',
    does: (m) => `The run tries the failed step (${m.failed_step ?? 'unknown'}) again.`,
    confirm: 'Yes, retry it',
    done: 'Retry requested: the run tries the step again.',
  },
  target_authoritative: {
    ask: 'The target is good: commit there…',
    does: (m) =>
      `${m.target.name} is recorded as authoritative: the migration commits there and the copy on ${m.source.name} is cleaned up. Check that the guest runs on ${m.target.name} first.`,
    confirm: `Yes, the target is authoritative`,
    done: 'Decision recorded: the migration commits on the target.',
  },
  source_authoritative: {
    ask: 'The source is good: give it back…',
    does: (m) =>
      `${m.source.name} is recorded as authoritative: the copy on ${m.target.name} is discarded and the migration ends ROLLED_BACK. Check that the guest runs on ${m.source.name} first.`,
    confirm: `Yes, the source is authoritative`,
    done: 'Decision recorded: the source is kept and the target’s copy discarded.',
  },
};
