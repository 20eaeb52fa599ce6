import { FAILURE_POLICIES, type FailurePolicy } from '../domain/evacuations/states.js';
import { UsageError } from './command.js';

/** A whole number within bounds, or nothing when the option was not given. */
export function countOption(value: string | undefined, option: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(`--${option} must be a whole number from 1 to ${max}`);
  return n;
}

export function failureOption(value: string | undefined): FailurePolicy | undefined {
  if (value === undefined) return undefined;
  if (!(FAILURE_POLICIES as readonly string[]).includes(value))
    throw new UsageError(`--on-failure must be one of ${FAILURE_POLICIES.join(', ')}`);
  return value as FailurePolicy;
}
