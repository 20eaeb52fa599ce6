import { policyInWords } from '../../../../domain/migrations/convergence.js';
import type { MigrationBody } from '../../../../wire/serializers/moves/migration.js';
import { StateBadge } from '../../layout/badge.js';
import { Detail } from '../../layout/detail.js';
import { Findings } from '../../layout/findings.js';
import { When } from '../../layout/time.js';

type Migration = MigrationBody['attributes'];

/** What the migration is and where it stands: both sides, the point of no return, the lease, the run. */
export function Summary(props: { migration: Migration }) {
  const m = props.migration;
  return (
    <dl class="facts">
      <dt>State</dt>
      <dd>
        <StateBadge state={m.state} />
      </dd>
      <dt>Instance</dt>
      <dd class="mono">{m.instance_uuid}</dd>
      <dt>Source</dt>
      <dd>
        {m.source.name} <span class="detail mono">{m.source.uuid}</span>
      </dd>
      <dt>Target</dt>
      <dd>
        {m.target.name} <span class="detail mono">{m.target.uuid}</span>
      </dd>
      <dt>Mode, strategy</dt>
      <dd>
        {m.mode}, {m.strategy}
      </dd>
      <dt>Convergence</dt>
      <dd>
        {m.convergence
          ? policyInWords(m.convergence)
          : 'QEMU’s defaults (requested before moves had a policy)'}
      </dd>
      <dt>Point of no return</dt>
      <dd>
        <span class="mono">{m.point_of_no_return}</span>:{' '}
        {m.point_of_no_return_passed ? 'passed (cancel and rollback are no longer possible)' : 'not reached'}
      </dd>
      <dt>Requested</dt>
      <dd>
        <When at={m.created_at} /> by <span class="mono">{m.requested_by}</span>
        {m.reason && <> — “{m.reason}”</>}
      </dd>
      <dt>Lease</dt>
      <dd>
        {m.lease ? (
          <>
            held by <span class="mono">{m.lease.holder}</span> until <When at={m.lease.expires_at} />
          </>
        ) : (
          'not held'
        )}
      </dd>
      <dt>Source copy kept until</dt>
      <dd>
        <When at={m.retain_source_until} />
      </dd>
      <dt>Failed step</dt>
      <dd>
        {m.failed_step ? <span class="mono">{m.failed_step}</span> : '—'}
        {m.failure && (
          <>
            {' '}
            <Detail of={m.failure} />
          </>
        )}
      </dd>
      {m.recovery && (
        <>
          <dt>Recovery decision</dt>
          <dd>
            <span class="mono">{m.recovery.decision}</span> by {m.recovery.by ?? '—'}: “
            {m.recovery.reason ?? ''}”
          </dd>
        </>
      )}
      <dt>Last change</dt>
      <dd>
        <When at={m.updated_at} />
        {m.finished_at && (
          <>
            {' '}
            · finished <When at={m.finished_at} />
          </>
        )}
      </dd>
      <dt>Workflow</dt>
      <dd>
        {m.temporal_ui_url ? (
          <a href={m.temporal_ui_url}>
            <span class="mono">{m.workflow_id}</span> in the Temporal UI
          </a>
        ) : (
          <span class="mono">{m.workflow_id}</span>
        )}
      </dd>
    </dl>
  );
}

/** What the preflight warned of when the migration was requested. */
export function Warnings(props: { warnings: Migration['warnings'] }) {
  if (props.warnings.length === 0) return <p>No warnings.</p>;
  return <Findings items={props.warnings} />;
}
