import type { Attention } from '../../../../domain/migrations/attention.js';
import type { MigrationBody } from '../../../../wire/serializers/moves/migration.js';
import { StateBadge } from '../../layout/badge.js';
import { shortId, When } from '../../layout/time.js';
import { pages } from '../../paths.js';

type Migration = MigrationBody['attributes'];

const Route = (props: { m: Migration }) => (
  <>
    {props.m.source.name} → {props.m.target.name}
  </>
);

// The name holds the visible text (WCAG "label in name"); a hidden span would be the link's first box.
const ViewLink = (props: { m: Migration }) => (
  <a href={pages.migration(props.m.uuid)} class="mono" aria-label={`Migration ${shortId(props.m.uuid)}`}>
    {shortId(props.m.uuid)}
  </a>
);

/** One page of migrations, newest first. */
export function MigrationTable(props: { migrations: readonly Migration[]; caption: string }) {
  return (
    <table>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Migration</th>
          <th scope="col">State</th>
          <th scope="col">Instance</th>
          <th scope="col">From → to</th>
          <th scope="col">Mode (strategy)</th>
          <th scope="col">Requested</th>
          <th scope="col">Last change</th>
        </tr>
      </thead>
      <tbody>
        {props.migrations.map((m) => (
          <tr>
            <td>
              <ViewLink m={m} />
            </td>
            <td>
              <StateBadge state={m.state} />
            </td>
            <td class="mono">{m.instance_uuid}</td>
            <td>
              <Route m={m} />
            </td>
            <td>
              {m.mode} ({m.strategy})
            </td>
            <td>
              <When at={m.created_at} />
            </td>
            <td>
              <When at={m.updated_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface AttentionRow {
  readonly migration: Migration;
  readonly attention: Attention;
}

/** The migrations waiting for an operator, or stuck: above the list, whatever page it is on. */
export function AttentionTable(props: { rows: readonly AttentionRow[]; total: number }) {
  return (
    <section class="panel attention" aria-labelledby="attention-title">
      <h2 id="attention-title">Needs attention ({props.total})</h2>
      {props.total > props.rows.length && (
        <p>
          The {props.rows.length} waiting longest are shown; filter by state or hypervisor to see the others.
        </p>
      )}
      <table>
        <caption class="visually-hidden">Migrations that need attention</caption>
        <thead>
          <tr>
            <th scope="col">Migration</th>
            <th scope="col">Why</th>
            <th scope="col">State</th>
            <th scope="col">From → to</th>
            <th scope="col">Unchanged since</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map(({ migration: m, attention }) => (
            <tr>
              <td>
                <ViewLink m={m} />
              </td>
              <td>
                {attention === 'recovery_required' ? 'Waits for a recovery decision' : 'Stuck: no progress'}
              </td>
              <td>
                <StateBadge state={m.state} />
              </td>
              <td>
                <Route m={m} />
              </td>
              <td>
                <When at={m.updated_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
