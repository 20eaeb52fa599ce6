import { findInstanceOfUser, type Instance } from '../../../db/repositories/instances/instances.js';
import type { PolicyFields } from '../../../db/repositories/storage/backup-policies.js';
import type { Customer } from '../../../domain/actors.js';
import { cronProblem } from '../../../domain/backups.js';
import { ApiError, type FieldIssue, notFound } from '../../../domain/errors.js';
import type { ServiceDeps } from '../../context.js';

/** A schedule as the customer sends it: cron or interval (exactly one), retention, paused. */
export type ScheduleRequest = PolicyFields;

/** The fields' own rules beyond their types: a valid cron expression, retention within the limit. */
export function checkFields(deps: ServiceDeps, fields: ScheduleRequest): void {
  const issues: FieldIssue[] = [];
  if (fields.cron !== null) {
    const problem = cronProblem(fields.cron);
    if (problem) issues.push({ field: 'cron', detail: problem });
  }
  if (fields.keepLast > deps.config.MAX_BACKUPS_PER_INSTANCE)
    issues.push({
      field: 'keep_last',
      detail: `An instance holds at most ${deps.config.MAX_BACKUPS_PER_INSTANCE} backups.`,
    });
  if (issues.length > 0) throw new ApiError('SVC-REQ-400', { fields: issues });
}

export async function ownInstance(deps: ServiceDeps, actor: Customer, instanceId: string): Promise<Instance> {
  const instance = await findInstanceOfUser(deps.db, actor.userId, instanceId);
  if (!instance) throw notFound();
  return instance;
}

export const duplicateName = () =>
  new ApiError('SVC-CONFLICT-409', { detail: 'The instance has a backup schedule of this name already.' });
