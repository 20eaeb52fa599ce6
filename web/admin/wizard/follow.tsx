import { TERMINAL_STATES } from '../../../domain/migrations/states.js';
import type { MigrationBody } from '../../../wire/serializers/moves/migration.js';
import { StateBadge } from '../layout/badge.js';
import { Steps } from '../migrations/view/steps.js';
import { pages } from '../paths.js';

type Migration = MigrationBody['attributes'];

/** How often the wizard's last step refreshes. */
const REFRESH_MS = 2_000;

const ENDED_AS: Partial<Record<Migration['state'], string>> = {
  CLEANED_UP: 'The migration completed: the instance runs on the target and the source’s copy is removed.',
  COMPLETED:
    'The migration completed: the instance runs on the target; the source’s copy is kept for the retention window.',
  CLEANING_UP:
    'The migration completed: the instance runs on the target; the source’s copy is being removed.',
  ROLLED_BACK: 'The migration was rolled back: the instance stays on the source.',
  RECOVERY_REQUIRED: 'The migration waits for a recovery decision: open its view to take one.',
};

/** The wizard's last step: the migration just started, followed step by step until it ends. */
export function Follow(props: { migration: Migration; live: string }) {
  const m = props.migration;
  return (
    <section
      id="wizard-follow"
      aria-labelledby="follow-title"
      data-live={props.live}
      data-live-every={String(REFRESH_MS)}
      {...(TERMINAL_STATES.includes(m.state) ? { 'data-live-final': '' } : {})}
    >
      <h2 id="follow-title">
        {m.source.name} → {m.target.name}: <StateBadge state={m.state} />
      </h2>
      {ENDED_AS[m.state] && <p role="status">{ENDED_AS[m.state]}</p>}
      <div class="panel">
        <Steps migration={m} />
      </div>
      <p>
        <a href={pages.migration(m.uuid)}>The migration’s view</a> (history, details and actions)
      </p>
    </section>
  );
}
