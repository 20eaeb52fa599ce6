import type { OperationContext } from '../operation-context.js';
import type { MoveStrategy } from './states.js';

/**
 * What every move's run is given by the service that requested it, besides its own ids and what
 * its steps need. The field names of each kind's id (`migrationId`, `moveId`) and retention stay
 * theirs: running histories carry them.
 */
export interface MoveRunInput {
  readonly operation: OperationContext;
  readonly strategy: MoveStrategy;
  /** The lease's time to live; the run renews it every third of this. */
  readonly leaseTtlMs: number;
}
