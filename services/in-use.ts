import { ApiError } from '../domain/errors.js';

/**
 * The refusal of a delete while something holds the resource, counting each kind of holder:
 * `The plan is used by 2 instances.`, `The location holds 1 hypervisor and 3 instances.`
 */
export function inUse(
  what: string,
  holders: readonly (readonly [number, string])[],
  verb = 'holds',
): ApiError {
  const counted = holders
    .filter(([count]) => count > 0)
    .map(([count, noun]) => `${count} ${noun}${count === 1 ? '' : 's'}`);
  const list = counted.length > 1 ? `${counted.slice(0, -1).join(', ')} and ${counted.at(-1)}` : counted[0];
  return new ApiError('SVC-INUSE-409', { detail: `The ${what} ${verb} ${list}.` });
}
