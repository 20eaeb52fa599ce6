import { happyPath, type MigrationState } from '../../../../domain/migrations/states.js';
import type { MigrationBody } from '../../../../wire/serializers/moves/migration.js';
import { When } from '../../layout/time.js';

type Migration = MigrationBody['attributes'];
type StepMark = 'done' | 'current' | 'failed' | 'pending';

interface Step {
  readonly state: MigrationState;
  readonly mark: StepMark;
  readonly at: string | undefined;
}

const ENDINGS: readonly MigrationState[] = ['ROLLING_BACK', 'ROLLED_BACK', 'RECOVERY_REQUIRED'];

/**
 * The steps of a migration as an administrator follows them: its strategy's happy path, each done,
 * current or still to come; a step that failed; and, once it turned, the rollback or the wait for a
 * recovery decision. Each with the last time the migration entered it.
 */
export function stepsOf(m: Migration): Step[] {
  const lastAt = new Map(m.history.map((h) => [h.state, h.at]));
  const path = happyPath(m.strategy);
  const turned = ENDINGS.includes(m.state) || m.history.some((h) => ENDINGS.includes(h.state));
  const at = path.indexOf(m.state);
  const onPath: Step[] = path.flatMap((state, i): Step[] => {
    const reached = lastAt.has(state);
    if (turned) {
      if (state === m.failed_step) return [{ state, mark: 'failed', at: lastAt.get(state) }];
      return reached ? [{ state, mark: 'done', at: lastAt.get(state) }] : [];
    }
    const mark: StepMark =
      i < at || (i === at && state === 'CLEANED_UP') ? 'done' : i === at ? 'current' : 'pending';
    return [{ state, mark, at: lastAt.get(state) }];
  });
  if (!turned) return onPath;
  // In the order the migration entered them: a decision may end a wait in a rollback.
  const entered = [...new Set([...m.history.map((h) => h.state), m.state])].filter((state) =>
    ENDINGS.includes(state),
  );
  const endings = entered.map(
    (state): Step => ({
      state,
      mark: state === m.state && state !== 'ROLLED_BACK' ? 'current' : 'done',
      at: lastAt.get(state),
    }),
  );
  return [...onPath, ...endings];
}

const LABEL: Record<StepMark, string> = {
  done: 'done',
  current: 'now',
  failed: 'failed',
  pending: 'to come',
};

/** The steps as a list a screen reader reads in order, the current one marked as such. */
export function Steps(props: { migration: Migration }) {
  return (
    <ol class="steps">
      {stepsOf(props.migration).map((step) => (
        <li class={step.mark} aria-current={step.mark === 'current' ? 'step' : undefined}>
          <span class="mono">{step.state}</span> <span class="visually-hidden">({LABEL[step.mark]})</span>
          {step.at && (
            <>
              {' '}
              <span class="detail">
                <When at={step.at} />
              </span>
            </>
          )}
          {step.state === props.migration.point_of_no_return && (
            <span class="detail">
              {' '}
              · point of no return
              {step.state === 'LIVE_MIGRATING' ? ' at the switchover (cancel possible before it)' : ''}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}
