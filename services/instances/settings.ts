import { recordActivity } from '../../db/repositories/events/activity-log.js';
import {
  changeInstanceSetting,
  type InstanceSettingChange,
} from '../../db/repositories/instances/instance-settings.js';
import { findInstanceOfUser, type Instance } from '../../db/repositories/instances/instances.js';
import { actorName, type Customer } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { type InstanceSetting, maySettingChange } from '../../domain/instances/settings.js';
import type { ServiceDeps } from '../context.js';

export interface SettingRequest {
  readonly instanceId: string;
  readonly setting: InstanceSetting;
  readonly value: string;
  readonly correlationId: string | null;
}

const COLUMN_OF: Record<InstanceSetting, InstanceSettingChange['column']> = {
  rename: 'name',
  hostname: 'hostname',
  timezone: 'timezone',
};

/**
 * Changes a setting on the panel's record of a customer's instance. Rename is the panel's alone;
 * the hostname and timezone reach the guest with the next rebuild, whose task carries them. Refused
 * while an operation runs on the instance or it is migrating, checked in the same statement that
 * writes (db/repositories/instances/instance-settings.ts); the activity-log line commits with the change.
 */
export async function changeSetting(
  deps: Pick<ServiceDeps, 'db'>,
  actor: Customer,
  request: SettingRequest,
): Promise<Instance> {
  const change = { column: COLUMN_OF[request.setting], value: request.value } as InstanceSettingChange;
  return deps.db.transaction().execute(async (trx) => {
    const result = await changeInstanceSetting(trx, actor.userId, request.instanceId, change);
    if (!result.changed) {
      if (!result.facts) throw notFound();
      const verdict = maySettingChange(result.facts);
      // Nothing stands in the way any more: a lease was released between the two statements.
      throw verdict.ok ? new ApiError('SVC-OP-409') : new ApiError(verdict.code, { detail: verdict.detail });
    }
    await recordActivity(trx, {
      instanceId: request.instanceId,
      userId: actor.userId,
      actor: actorName(actor),
      event: `instance.settings.${request.setting}`,
      detail: { from: result.previous, to: request.value },
      correlationId: request.correlationId,
    });
    const instance = await findInstanceOfUser(trx, actor.userId, request.instanceId);
    if (!instance) throw notFound();
    return instance;
  });
}
