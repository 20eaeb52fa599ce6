import type { Context, Hono } from 'hono';
import { OPERATOR_ACTIONS, type OperatorAction } from '../../../../domain/migrations/control.js';
import { TERMINAL_STATES } from '../../../../domain/migrations/states.js';
import { getMigration } from '../../../../services/migrations/reads.js';
import { type MigrationBody, serializeMigration } from '../../../../wire/serializers/moves/migration.js';
import type { PageEnv } from '../../context.js';
import { Notice } from '../../layout/page.js';
import { shortId } from '../../layout/time.js';
import { migrationParam } from '../../params.js';
import { pages, routes } from '../../paths.js';
import { type PageStatus, renderPage, renderPart } from '../../render.js';
import { signedIn } from '../../session/guard.js';
import { ACTION_TEXTS } from './action-texts.js';
import { type ActionProblem, Actions } from './actions.js';
import { History } from './history.js';
import { LiveProgress } from './live-progress.js';
import { Steps } from './steps.js';
import { Summary, Warnings } from './summary.js';

type Migration = MigrationBody['attributes'];

/** How often a migration's view refreshes itself while it runs. */
const REFRESH_MS = 2_000;

/** The live attributes of a region: refreshed from `part` until the migration has ended. */
const live = (m: Migration, part: string) => ({
  'data-live': `${pages.migration(m.uuid)}?part=${part}`,
  'data-live-every': String(REFRESH_MS),
  ...(TERMINAL_STATES.includes(m.state) ? { 'data-live-final': '' } : {}),
});

const Standing = (props: { m: Migration }) => (
  <section id="migration-live" aria-labelledby="standing-title" {...live(props.m, 'live')}>
    <h2 id="standing-title">Where it stands</h2>
    <div class="panel">
      <Summary migration={props.m} />
    </div>
    {props.m.live_progress && (
      <>
        <h2>Live move</h2>
        <div class="panel">
          <LiveProgress live={props.m.live_progress} />
        </div>
      </>
    )}
    <h2>Steps</h2>
    <div class="panel">
      <Steps migration={props.m} />
    </div>
    <History migration={props.m} />
  </section>
);

const ActionsRegion = (props: { m: Migration; csrf: string; problem?: ActionProblem | undefined }) => (
  <section id="migration-actions" aria-labelledby="actions-title" {...live(props.m, 'actions')}>
    <h2 id="actions-title">Actions</h2>
    <Actions migration={props.m} csrf={props.csrf} problem={props.problem} />
  </section>
);

export interface ViewExtras {
  readonly notice?: { kind: 'info' | 'error'; text: string } | undefined;
  readonly problem?: ActionProblem | undefined;
  readonly status?: PageStatus;
}

/** A migration's view; the action routes render it again with what they have to say. */
export async function renderView(c: Context<PageEnv>, migrationId: string, extras: ViewExtras = {}) {
  const deps = c.get('deps');
  const m = serializeMigration(await getMigration(deps, migrationId), deps.config).attributes;
  const part = c.req.query('part');
  if (c.req.method === 'GET' && part === 'live') return renderPart(c, <Standing m={m} />);
  if (c.req.method === 'GET' && part === 'actions')
    return renderPart(c, <ActionsRegion m={m} csrf={c.get('csrf')} />);
  const done = c.req.query('done') as OperatorAction | undefined;
  const notice =
    extras.notice ??
    (done && OPERATOR_ACTIONS.includes(done)
      ? { kind: 'info' as const, text: ACTION_TEXTS[done].done }
      : undefined);
  return renderPage(
    c,
    `Migration ${shortId(m.uuid)}`,
    <>
      <p>
        <a href={pages.migrations}>← Migrations</a>
      </p>
      <h1>
        Migration <span class="mono">{shortId(m.uuid)}</span>: {m.source.name} → {m.target.name}
      </h1>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      <Standing m={m} />
      <h2>Warnings</h2>
      <Warnings warnings={m.warnings} />
      <ActionsRegion m={m} csrf={c.get('csrf')} problem={extras.problem} />
      <p>
        <a href={pages.wizard(m.instance_uuid)}>Migrate this instance again</a>
      </p>
    </>,
    extras.status,
  );
}

/**
 * `GET /migrations/{uuid}/view` (SPEC.md §4 "Admin pages"): the state timeline with times and
 * details, both sides, mode and strategy, warnings, the point of no return, the lease, the
 * retention deadline, the failure, the run in the Temporal UI, and the actions the state allows.
 */
export function register(app: Hono<PageEnv>): void {
  app.get(routes.migration, signedIn, (c) => renderView(c, migrationParam(c)));
}
