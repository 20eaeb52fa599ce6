import type { Context, Hono } from 'hono';
import { notFound } from '../../../domain/errors.js';
import { getPlacedInstance } from '../../../services/instances/placed.js';
import { migrationPreflight } from '../../../services/migrations/preflight.js';
import { getMigration } from '../../../services/migrations/reads.js';
import { convergenceDefaults } from '../../../services/moves/settings.js';
import { serializePlacedInstance } from '../../../wire/serializers/instances/placed-instance.js';
import { serializeMigration, serializePreflight } from '../../../wire/serializers/moves/migration.js';
import type { PageEnv } from '../context.js';
import { Notice } from '../layout/page.js';
import { instanceParam } from '../params.js';
import { pages, routes } from '../paths.js';
import { type PageStatus, renderPage, renderPart } from '../render.js';
import { signedIn } from '../session/guard.js';
import { Check } from './check.js';
import { type Choice, Choose } from './choose.js';
import { Follow } from './follow.js';
import { InstanceCard } from './instance-card.js';
import { readWizardQuery } from './query.js';

export interface WizardExtras {
  /** The choice a refused start was made with, shown again. */
  readonly choice?: Choice;
  readonly notice?: string | undefined;
  readonly status?: PageStatus;
}

/** The migration the wizard started, followed; it must be this instance's. */
async function following(c: Context<PageEnv>, instanceId: string, migrationId: string) {
  const deps = c.get('deps');
  const record = await getMigration(deps, migrationId);
  if (record.instance_id !== instanceId) throw notFound();
  const m = serializeMigration(record, deps.config).attributes;
  const follow = <Follow migration={m} live={`${pages.wizard(instanceId)}?migration=${m.uuid}&part=live`} />;
  if (c.req.query('part') === 'live') return renderPart(c, follow);
  return renderPage(
    c,
    'Migrate: following',
    <>
      <h1>Migrate the instance: 3. Follow</h1>
      {follow}
    </>,
  );
}

/** The wizard; the start renders it again with why it was refused. */
export async function renderWizard(c: Context<PageEnv>, instanceId: string, extras: WizardExtras = {}) {
  const deps = c.get('deps');
  const input = readWizardQuery(c.req.query());
  if (input.migration) return following(c, instanceId, input.migration);
  const choice = extras.choice ?? input.choice;
  const instance = serializePlacedInstance(await getPlacedInstance(deps, instanceId)).attributes;
  const preflight = serializePreflight(
    await migrationPreflight(deps, { instanceId, targetId: choice.target, mode: choice.mode }),
  ).attributes;
  const action = pages.wizard(instanceId);
  const problem = extras.notice ?? input.problem;
  return renderPage(
    c,
    `Migrate ${instance.name}`,
    <>
      <h1>Migrate the instance</h1>
      {problem && <Notice kind="error">{problem}</Notice>}
      <h2>1. The instance</h2>
      <InstanceCard instance={instance} />
      <h2>2. Choose a mode and a target</h2>
      <Choose action={action} choice={choice} preflight={preflight} />
      <Check
        action={action}
        choice={choice}
        preflight={preflight}
        csrf={c.get('csrf')}
        convergence={convergenceDefaults(deps.config)}
      />
    </>,
    extras.status ?? (input.problem ? 400 : 200),
  );
}

/**
 * `GET /instances/view/{uuid}/migrate/wizard` (SPEC.md §4 "Admin pages"): the instance and its
 * hypervisor; a mode and a target from the preflight's ranked candidates, the rejected ones with
 * their reasons; the blockers and warnings of the choice; the start (start.tsx); and the migration
 * followed live to its end.
 */
export function register(app: Hono<PageEnv>): void {
  app.get(routes.wizard, signedIn, (c) => renderWizard(c, instanceParam(c)));
}
