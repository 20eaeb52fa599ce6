import type { ConvergencePolicy } from '../../../domain/migrations/convergence.js';
import type { MigrationPreflightBody } from '../../../wire/serializers/moves/migration.js';
import { Findings } from '../layout/findings.js';
import type { Choice } from './choose.js';
import { ConvergenceInputs } from './convergence.js';

type Preflight = MigrationPreflightBody['attributes'];

/**
 * The preflight of the choice: every blocker and warning, then, with no blocker, the start. The
 * start names the target the preflight judged, so the migration goes where the page said.
 */
export function Check(props: {
  action: string;
  choice: Choice;
  preflight: Preflight;
  csrf: string;
  convergence: ConvergencePolicy;
}) {
  const { preflight } = props;
  return (
    <section class="panel" aria-labelledby="check-title">
      <h2 id="check-title">
        {preflight.ok ? 'Ready' : 'Blocked'}: {preflight.source?.name ?? '—'} →{' '}
        {preflight.target?.name ?? 'no target'}
        {preflight.strategy && <>, {preflight.strategy}</>}
      </h2>
      {preflight.blockers.length > 0 && (
        <div role="alert">
          <p>It cannot start:</p>
          <Findings items={preflight.blockers} />
        </div>
      )}
      {preflight.warnings.length > 0 ? (
        <>
          <p>Warnings:</p>
          <Findings items={preflight.warnings} />
        </>
      ) : (
        <p>No warnings.</p>
      )}
      {preflight.ok && preflight.target && (
        <form method="post" action={props.action}>
          <input type="hidden" name="csrf" value={props.csrf} />
          <input type="hidden" name="mode" value={props.choice.mode} />
          <input type="hidden" name="target" value={preflight.target.uuid} />
          <label for="start-reason">Reason (recorded with the migration)</label>
          <textarea id="start-reason" name="reason" maxlength={500} />
          <ConvergenceInputs defaults={props.convergence} />
          <p>
            <button type="submit">Start the migration to {preflight.target.name}</button>
          </p>
        </form>
      )}
    </section>
  );
}
