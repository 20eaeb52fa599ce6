import { ApiError } from './errors.js';

/**
 * Instance status values (SPEC.md §3 rule 4 leaves them open). Transitional statuses name the
 * operation under way; a power action is allowed only from the steady states that make sense.
 */
export const INSTANCE_STATUSES = [
  'provisioning',
  'running',
  'stopped',
  'starting',
  'stopping',
  'restarting',
  'rebuilding',
  'migrating',
  'deleting',
  'error',
] as const;
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];

export const BOOT_DEVICES = ['disk', 'cdrom', 'network'] as const;

export const POWER_ACTIONS = ['start', 'stop', 'restart', 'kill'] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

interface PowerRule {
  readonly from: readonly InstanceStatus[];
  readonly during: InstanceStatus;
  readonly after: InstanceStatus;
}

export const POWER_RULES: Record<PowerAction, PowerRule> = {
  start: { from: ['stopped'], during: 'starting', after: 'running' },
  stop: { from: ['running'], during: 'stopping', after: 'stopped' },
  restart: { from: ['running'], during: 'restarting', after: 'running' },
  // kill is the way out of a hung transition, so it is accepted from those too.
  kill: { from: ['running', 'starting', 'stopping', 'restarting'], during: 'stopping', after: 'stopped' },
};

/** Throws the conflict error when `action` is not allowed from `status`. */
export function assertPowerActionAllowed(status: string, action: PowerAction): PowerRule {
  const rule = POWER_RULES[action];
  if (!(rule.from as readonly string[]).includes(status)) {
    throw new ApiError('SVC-CONFLICT-409', {
      detail: `The instance cannot ${action} while it is ${status}.`,
    });
  }
  return rule;
}
