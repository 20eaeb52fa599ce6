import { CancellationScope, sleep } from '@temporalio/workflow';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import {
  isPastPointOfNoReturn,
  type MigrationState,
  wasPastPointOfNoReturnBeforeTheSwitch,
} from '../../domain/migrations/states.js';
import { guestPlaceFromLook, switchSideOf } from '../../domain/migrations/switch.js';
import { describeFailure } from '../lib/failures.js';
import type { MigrationTasks } from './tasks.js';

// Where a live move turns (docs/migration.md "The point of no return"): at the switchover inside
// LIVE_MIGRATING, not on entering it. Runs begun before that (no `migration-turns-at-switch`
// marker) keep the old rule: LIVE_MIGRATING itself is past the point of no return.

/** How often, and how long, the source is asked while a cancelled move there still winds down. */
const LOOK_EVERY = '2 seconds';
const LOOKS = 30;

/** The run's rule for a state: past the point of no return or not, as the run was begun. */
export const pastRule = (input: Pick<MigrateInstanceInput, 'strategy'>, turnsAtSwitch: boolean) =>
  turnsAtSwitch
    ? (state: MigrationState) => isPastPointOfNoReturn(state, input.strategy)
    : (state: MigrationState) => wasPastPointOfNoReturnBeforeTheSwitch(state, input.strategy);

/**
 * Whether a step's failure left the source authoritative (roll back) or not (an operator decides).
 * Before LIVE_MIGRATING, yes; after it, no. In LIVE_MIGRATING the hypervisor's code says which side
 * of the switch it failed on; where it does not (an administrator's cancel, a task lost or timed
 * out, an unknown failure) the source is asked, until the move there has wound down.
 */
export async function failedBeforeTheTurn(
  tasks: MigrationTasks,
  input: Pick<MigrateInstanceInput, 'strategy'>,
  state: MigrationState,
  error: unknown,
): Promise<boolean> {
  if (state !== 'LIVE_MIGRATING') return !isPastPointOfNoReturn(state, input.strategy);
  const side = switchSideOf(describeFailure(error).code);
  if (side !== 'unknown') return side === 'before';
  // Asked whatever cancelled the step: the answer decides what is undone.
  return CancellationScope.nonCancellable(() => guestStayedOnSource(tasks));
}

async function guestStayedOnSource(tasks: MigrationTasks): Promise<boolean> {
  for (let look = 1; ; look++) {
    const answer = await tasks
      .onSource('instance.state', { instance_id: tasks.ids.instance_id }, 'ask where the guest runs')
      .catch(() => undefined);
    const place = guestPlaceFromLook(answer);
    if (place !== 'moving' || look === LOOKS) return place === 'source';
    await sleep(LOOK_EVERY);
  }
}
