import { bytesInWords, durationInWords } from '../../../../domain/migrations/live-progress.js';
import type { MigrationBody } from '../../../../wire/serializers/moves/migration.js';
import { When } from '../../layout/time.js';

type Live = NonNullable<MigrationBody['attributes']['live_progress']>;

/**
 * A live move's figures as QEMU reports them (docs/migration.md "Live progress"), refreshed with
 * the rest of the migration's standing while it runs; its downtime and total time once the memory
 * has moved.
 */
export function LiveProgress(props: { live: Live }) {
  const { figures, downtime_ms, total_ms, reported_at } = props.live;
  const ended = downtime_ms !== null || total_ms !== null;
  return (
    <dl class="facts" id="live-progress">
      {figures && (
        <>
          <dt>Memory sent</dt>
          <dd data-figure="transferred_bytes">
            {bytesInWords(figures.transferred_bytes)} of {bytesInWords(figures.total_bytes)}
          </dd>
          <dt>Remaining</dt>
          <dd data-figure="remaining_bytes">{bytesInWords(figures.remaining_bytes)}</dd>
          <dt>Dirty rate</dt>
          <dd data-figure="dirty_rate_bytes_per_s">{bytesInWords(figures.dirty_rate_bytes_per_s)}/s</dd>
          <dt>Passes</dt>
          <dd data-figure="iterations">{figures.iterations}</dd>
          <dt>Throttle</dt>
          <dd data-figure="throttle_pct">{figures.throttle_pct} %</dd>
          <dt>Expected downtime</dt>
          <dd data-figure="expected_downtime_ms">{durationInWords(figures.expected_downtime_ms)}</dd>
        </>
      )}
      {ended && (
        <>
          <dt>Downtime</dt>
          <dd data-figure="downtime_ms">{downtime_ms === null ? '—' : durationInWords(downtime_ms)}</dd>
          <dt>Total time</dt>
          <dd data-figure="total_ms">{total_ms === null ? '—' : durationInWords(total_ms)}</dd>
        </>
      )}
      <dt>{ended ? 'Ended' : 'Reported'}</dt>
      <dd>
        <When at={reported_at} />
      </dd>
    </dl>
  );
}
