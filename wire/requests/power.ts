import { POWER_ACTIONS } from '../../domain/instances/statuses.js';
import { z } from '../zod.js';

/** A power action's body and its rules, the same for a customer's and an administrator's. */

export const PowerBody = z.strictObject({ action: z.enum(POWER_ACTIONS) }).openapi('PowerRequest');

export const POWER_RULES =
  'Accepted actions by status: `start` from stopped; `stop` and `restart` from running; `kill` from running, ' +
  'or while a start, stop or restart is in progress (kill takes over: the earlier action is cancelled). The ' +
  'instance moves at once to a transitional status (starting, stopping, restarting) and, when its hypervisor ' +
  'reports, to the power state the hypervisor reports (running or stopped). If the action fails, the instance ' +
  'returns to the status it had. One operation per instance at a time; a request right after the previous one ' +
  'settled is accepted.';
