import { CancellationScope, setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import type { MigrationState } from '../../domain/migrations/states.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { Saga } from '../lib/saga.js';
import { bookkeeping } from '../lib/steps.js';
import type { RecoveryRequest, RollbackRequest } from './definitions.js';

export type Books = ReturnType<typeof bookkeeping>;

/**
 * What one migration run knows while it runs: its state (the authority its update validators ask),
 * what an administrator asked of it, the saga of its undos, and the scope of its forward steps,
 * which a cancel or rollback cancels.
 */
export class MigrationRun {
  state: MigrationState = 'REQUESTED';
  rollbackRequest: RollbackRequest | undefined;
  recovery: RecoveryRequest | undefined;
  finished = false;
  /** Set once COMMITTING made the target authoritative. */
  committed = false;
  /** Set once the committed migration handed its source's cleanup to a workflow of its own. */
  handedOver = false;
  /** Set while a cold move has stopped the guest on the source. */
  sourceStopped = false;
  /** When (workflow time) a cold move stopped the guest on the source: its interruption starts. */
  sourceStoppedAt: number | undefined;
  /**
   * `lost` when a renewal found the lease no longer this migration's: the next step boundary fails
   * on it and makes it `reported`. Reported once: an operator's recovery decision, taken knowing
   * it, is not refused again for the same loss.
   */
  lease: 'held' | 'lost' | 'reported' = 'held';
  readonly saga = new Saga();
  readonly forward = new CancellationScope();
  readonly books: Books = bookkeeping();

  constructor(readonly migrationId: string) {}

  /** Shows `state` in Temporal (search attribute, current details) without writing it. */
  show(state: MigrationState, details = `**Migration state:** ${state}`): void {
    this.state = state;
    upsertSearchAttributes({ [SEARCH_ATTRIBUTES.migrationState]: [state] });
    setCurrentDetails(details);
  }

  /** Enters `state`: shown, and written (a compare-and-set on the states allowed before it). */
  async enter(
    state: MigrationState,
    detail: Record<string, unknown> = {},
    extra: object = {},
  ): Promise<void> {
    this.show(state);
    await this.books.recordMigrationState({ migrationId: this.migrationId, state, detail, ...extra });
  }
}
