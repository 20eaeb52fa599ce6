import { allowedActions, type OperatorAction } from '../../../../domain/migrations/control.js';
import type { MigrationBody } from '../../../../wire/serializers/moves/migration.js';
import { pages } from '../../paths.js';
import { ACTION_TEXTS } from './action-texts.js';

type Migration = MigrationBody['attributes'];

/** A form that was sent back: which action, the reason as typed, and what was wrong with it. */
export interface ActionProblem {
  readonly action: OperatorAction;
  readonly reason: string;
  readonly detail: string;
}

export const actionsOf = (m: Migration) =>
  allowedActions({ state: m.state, strategy: m.strategy, failedStep: m.failed_step });

/**
 * A form for each action the state allows, each with its required reason; sending one asks for a
 * confirmation first (act.tsx). None when the state allows none.
 */
export function Actions(props: { migration: Migration; csrf: string; problem?: ActionProblem | undefined }) {
  const m = props.migration;
  const actions = actionsOf(m);
  if (actions.length === 0)
    return <p>No action is possible in this state{m.point_of_no_return_passed ? '' : ' now'}.</p>;
  return (
    <div class="actions">
      {actions.map((action) => {
        const problem = props.problem?.action === action ? props.problem : undefined;
        const id = `reason-${action}`;
        return (
          <form method="post" action={pages.migration(m.uuid)} class="panel">
            <input type="hidden" name="csrf" value={props.csrf} />
            <input type="hidden" name="action" value={action} />
            <label for={id}>Reason</label>
            <textarea
              id={id}
              name="reason"
              required
              maxlength={500}
              aria-invalid={problem ? 'true' : undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
            >
              {problem?.reason ?? ''}
            </textarea>
            {problem && (
              <div id={`${id}-problem`} class="field-error">
                {problem.detail}
              </div>
            )}
            <p>
              <button type="submit" class={action === 'retry' ? undefined : 'danger'}>
                {ACTION_TEXTS[action].ask}
              </button>
            </p>
          </form>
        );
      })}
    </div>
  );
}
