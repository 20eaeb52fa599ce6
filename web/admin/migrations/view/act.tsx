import type { Context, Hono } from 'hono';
import { ApiError } from '../../../../domain/errors.js';
import { OPERATOR_ACTIONS, type OperatorAction } from '../../../../domain/migrations/control.js';
import { recoverMigrationWith, rollBackMigration } from '../../../../services/migrations/control.js';
import { getMigration } from '../../../../services/migrations/reads.js';
import { reason as reasonField } from '../../../../wire/requests/move-fields.js';
import { serializeMigration } from '../../../../wire/serializers/moves/migration.js';
import type { PageEnv } from '../../context.js';
import { shortId } from '../../layout/time.js';
import { migrationParam } from '../../params.js';
import { pages, routes } from '../../paths.js';
import { type PageStatus, renderPage } from '../../render.js';
import { type FormFields, limitForm, sessionForm } from '../../session/forms.js';
import { sessionAdmin, signedIn } from '../../session/guard.js';
import { ACTION_TEXTS } from './action-texts.js';
import { renderView } from './page.js';

/** The action the form names, with its reason checked as the admin API checks it. */
function readAction(form: FormFields) {
  const action = form.action as OperatorAction;
  if (!OPERATOR_ACTIONS.includes(action))
    throw new ApiError('SVC-REQ-400', {
      fields: [{ field: 'action', detail: 'Not an action of a migration.' }],
    });
  const reason = reasonField.safeParse(form.reason ?? '');
  const given = reason.success ? reason.data : '';
  // Every action of the pages is recorded with its reason, a retry's too (the API lets a retry go without).
  const problem = !reason.success
    ? (reason.error.issues[0]?.message ?? 'Not a valid reason.')
    : given === ''
      ? 'A reason is required.'
      : undefined;
  return { action, reason: given, typed: form.reason ?? '', problem };
}

/** The question before the action: what it will do to this migration, with the reason given. */
async function confirmation(
  c: Context<PageEnv>,
  migrationId: string,
  action: OperatorAction,
  reason: string,
) {
  const deps = c.get('deps');
  const m = serializeMigration(await getMigration(deps, migrationId), deps.config).attributes;
  const text = ACTION_TEXTS[action];
  return renderPage(
    c,
    'Confirm',
    <>
      <h1>
        {text.ask.replace('…', '')}? <span class="mono">{shortId(m.uuid)}</span>
      </h1>
      <div class="panel">
        <p>
          Migration of instance <span class="mono">{m.instance_uuid}</span> from {m.source.name} to{' '}
          {m.target.name}, now <span class="mono">{m.state}</span>.
        </p>
        <p>{text.does(m)}</p>
        <p>
          Reason: <q>{reason}</q>
        </p>
        <form method="post" action={pages.migration(m.uuid)}>
          <input type="hidden" name="csrf" value={c.get('csrf')} />
          <input type="hidden" name="action" value={action} />
          <input type="hidden" name="reason" value={reason} />
          <input type="hidden" name="confirm" value="yes" />
          <button type="submit" class="danger">
            {text.confirm}
          </button>{' '}
          <a href={pages.migration(m.uuid)} class="button quiet">
            No, go back
          </a>
        </form>
      </div>
    </>,
  );
}

/**
 * `POST /migrations/{uuid}/view`: an action of the view's forms. The first post asks for the
 * confirmation; the confirmed one calls the service the admin API calls, then shows the view again
 * (303), or the view with why the action was refused, having changed nothing.
 */
export function register(app: Hono<PageEnv>): void {
  app.post(routes.migration, limitForm, signedIn, async (c) => {
    const migrationId = migrationParam(c);
    const form = await sessionForm(c);
    const { action, reason, typed, problem } = readAction(form);
    if (problem)
      return renderView(c, migrationId, { problem: { action, reason: typed, detail: problem }, status: 400 });
    if (form.confirm !== 'yes') return confirmation(c, migrationId, action, reason);
    const deps = c.get('deps');
    try {
      if (action === 'cancel' || action === 'rollback')
        await rollBackMigration(deps, sessionAdmin(c), { migrationId, kind: action, reason });
      else await recoverMigrationWith(deps, sessionAdmin(c), { migrationId, decision: action, reason });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code === 'SVC-RES-404' || error.status === 500) throw error;
      return renderView(c, migrationId, {
        notice: { kind: 'error', text: `${error.detail} (${error.code}) Nothing was changed.` },
        status: error.status as PageStatus,
      });
    }
    return c.redirect(`${pages.migration(migrationId)}?done=${action}`, 303);
  });
}
