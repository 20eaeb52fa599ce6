import type { Hono } from 'hono';
import { z } from 'zod';
import { ApiError } from '../../../domain/errors.js';
import { MIGRATION_MODES } from '../../../domain/migrations/states.js';
import { requestMigration } from '../../../services/migrations/request.js';
import { reason as reasonField } from '../../../wire/requests/move-fields.js';
import type { PageEnv } from '../context.js';
import { instanceParam } from '../params.js';
import { pages, routes } from '../paths.js';
import type { PageStatus } from '../render.js';
import { limitForm, sessionForm } from '../session/forms.js';
import { sessionAdmin, signedIn } from '../session/guard.js';
import { ConvergenceFields, convergenceOfForm } from './convergence.js';
import { renderWizard } from './page.js';

const StartForm = z
  .object({
    mode: z.enum(MIGRATION_MODES),
    target: z.string().uuid(),
    reason: reasonField.optional(),
  })
  .extend(ConvergenceFields.shape);

/**
 * `POST /instances/view/{uuid}/migrate/wizard`: the start, through the service the admin API's
 * request calls (the preflight again, the lease, the target's room, the workflow). Started, the
 * wizard follows the migration (303); refused, it shows why with the choice again, nothing changed.
 */
export function register(app: Hono<PageEnv>): void {
  app.post(routes.wizard, limitForm, signedIn, async (c) => {
    const instanceId = instanceParam(c);
    const form = StartForm.safeParse(await sessionForm(c));
    if (!form.success) {
      const fields = form.error.issues.map((i) => ({
        field: String(i.path[0] ?? 'form'),
        detail: i.message,
      }));
      // The page says which fields, as the admin API's 400 does.
      throw new ApiError('SVC-REQ-400', {
        detail: `Not a valid start: ${fields.map((f) => f.field).join(', ')}.`,
        fields,
      });
    }
    const { mode, target, reason } = form.data;
    const convergence = convergenceOfForm(form.data);
    try {
      const { migrationId } = await requestMigration(c.get('deps'), sessionAdmin(c), {
        instanceId,
        targetId: target,
        mode,
        reason: reason || undefined,
        convergence,
        correlationId: c.get('requestId'),
      });
      return c.redirect(`${pages.wizard(instanceId)}?migration=${migrationId}`, 303);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code === 'SVC-RES-404' || error.status === 500) throw error;
      return renderWizard(c, instanceId, {
        choice: { mode, target },
        notice: `The migration was not started: ${error.detail} (${error.code})`,
        status: error.status as PageStatus,
      });
    }
  });
}
