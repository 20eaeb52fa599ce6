import { mayRecover, mayRollBack } from '../../domain/migrations/control.js';
import {
  isPastPointOfNoReturn,
  type MigrationState,
  type MigrationStrategy,
} from '../../domain/migrations/states.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { installMoveControls } from '../lib/moves/controls.js';
import { MoveRun, type MoveStep, type StateChange } from '../lib/moves/run.js';
import { bookkeeping } from '../lib/steps.js';
import { migrationControls } from './definitions.js';

export type Books = ReturnType<typeof bookkeeping>;
export type MigrationStep = MoveStep<MigrationState>;

/**
 * What one migration run knows while it runs: a move's run (workflows/lib/moves/run.ts), written
 * through the migration's own bookkeeping, and what a change of host adds (the source's stop, the
 * cleanup handed over).
 */
export class MigrationRun extends MoveRun<MigrationState> {
  /** Set once the committed migration handed its source's cleanup to a workflow of its own. */
  handedOver = false;
  /** Set while a cold move has stopped the guest on the source. */
  sourceStopped = false;
  /** When (workflow time) a cold move stopped the guest on the source: its interruption starts. */
  sourceStoppedAt: number | undefined;
  readonly books: Books = bookkeeping();

  constructor(readonly migrationId: string) {
    super({ label: 'Migration state', attribute: SEARCH_ATTRIBUTES.migrationState });
  }

  /**
   * The run's answers to the panel, asked against its own state with the migration's point of no
   * return as the run was begun (`isPast`, switch.ts).
   */
  installControls(
    strategy: MigrationStrategy,
    isPast: (state: MigrationState) => boolean = (state) => isPastPointOfNoReturn(state, strategy),
  ): void {
    installMoveControls(this, migrationControls, {
      mayUndo: (state, reason) => mayRollBack({ state, strategy }, reason, (s) => isPast(s)),
      mayRecover,
    });
  }

  protected record(state: MigrationState, change: StateChange): Promise<void> {
    return this.books.recordMigrationState({ migrationId: this.migrationId, state, detail: {}, ...change });
  }

  annotate(state: MigrationState, detail: Record<string, unknown>): Promise<void> {
    return this.books.recordMigrationState({ migrationId: this.migrationId, state, detail, annotate: true });
  }

  renewLease(ttlMs: number): Promise<boolean> {
    return this.books.renewMigrationLease({ migrationId: this.migrationId, ttlMs });
  }
}
