import { MIGRATION_MODES, type MigrationMode } from '../../../domain/migrations/states.js';
import type { MigrationPreflightBody } from '../../../wire/serializers/moves/migration.js';
import { Findings } from '../layout/findings.js';

type Preflight = MigrationPreflightBody['attributes'];

/** What each mode means (docs/migration.md "Modes"). */
const MODE_MEANINGS: Record<MigrationMode, string> = {
  AUTO: 'Live when the target can take it and MIGRATION_AUTO_LIVE allows; cold otherwise.',
  LIVE_IF_POSSIBLE: 'Live; cold, with a warning, when live is not possible.',
  LIVE_REQUIRED: 'Live or not at all: the guest keeps running.',
  COLD: 'The guest is stopped, its disk copied and it is started on the target.',
};

export interface Choice {
  readonly mode: MigrationMode;
  /** Undefined: the preflight's best candidate. */
  readonly target: string | undefined;
}

/**
 * The mode and the target, a GET form that runs the preflight again: the candidates it ranked,
 * best first, and the hypervisors it rejected with every reason.
 */
export function Choose(props: { action: string; choice: Choice; preflight: Preflight }) {
  const { choice, preflight } = props;
  return (
    <form method="get" action={props.action} class="panel">
      <fieldset>
        <legend>Mode</legend>
        {MIGRATION_MODES.map((mode) => (
          <div class="choice">
            <input type="radio" id={`mode-${mode}`} name="mode" value={mode} checked={choice.mode === mode} />
            <label for={`mode-${mode}`}>
              <span class="mono">{mode}</span>: {MODE_MEANINGS[mode]}{' '}
              <span class="detail">
                (strategy with this target: {preflight.strategies[mode] ?? 'not possible'})
              </span>
            </label>
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>Target</legend>
        <div class="choice">
          <input type="radio" id="target-best" name="target" value="" checked={choice.target === undefined} />
          <label for="target-best">
            The best candidate{preflight.candidates[0] ? ` (now ${preflight.candidates[0].name})` : ''}
          </label>
        </div>
        {preflight.candidates.map((candidate, rank) => (
          <div class="choice">
            <input
              type="radio"
              id={`target-${candidate.uuid}`}
              name="target"
              value={candidate.uuid}
              checked={choice.target === candidate.uuid}
            />
            <label for={`target-${candidate.uuid}`}>
              {rank + 1}. {candidate.name}: {candidate.strategy}, {candidate.free_memory_mb} MB memory free
            </label>
          </div>
        ))}
        {preflight.candidates.length === 0 && <p>No hypervisor can take the instance in this mode.</p>}
      </fieldset>
      <p>
        <button type="submit">Check this choice</button>
      </p>
      {preflight.rejected.length > 0 && (
        <table>
          <caption>Hypervisors that cannot take it, and why</caption>
          <thead>
            <tr>
              <th scope="col">Hypervisor</th>
              <th scope="col">Reasons</th>
            </tr>
          </thead>
          <tbody>
            {preflight.rejected.map((r) => (
              <tr>
                <td>{r.name}</td>
                <td>
                  <Findings items={r.reasons} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </form>
  );
}
