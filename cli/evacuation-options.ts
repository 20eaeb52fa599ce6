import { type EvacuationPolicy, FAILURE_POLICIES, type FailurePolicy } from '../domain/evacuations/states.js';
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

/** The options of an evacuation's window and failures, as `cloudsvc:evacuation:start` and `:restore` take them. */
export const WINDOW_OPTIONS = {
  'max-parallel': { type: 'string' },
  'max-per-target': { type: 'string' },
  'on-failure': { type: 'string' },
  'max-attempts': { type: 'string' },
} as const;

type WindowValues = { [K in keyof typeof WINDOW_OPTIONS]?: string | undefined };

/** Those of the window options given, checked: the policy fields they set (the rest stay as they are). */
export function windowOptions(values: WindowValues): Partial<Omit<EvacuationPolicy, 'mode'>> {
  const maxParallel = countOption(values['max-parallel'], 'max-parallel', 64);
  const maxParallelPerTarget = countOption(values['max-per-target'], 'max-per-target', 64);
  const maxAttempts = countOption(values['max-attempts'], 'max-attempts', 10);
  const onFailure = failureOption(values['on-failure']);
  return {
    ...(maxParallel ? { maxParallel } : {}),
    ...(maxParallelPerTarget ? { maxParallelPerTarget } : {}),
    ...(onFailure ? { onFailure } : {}),
    ...(maxAttempts ? { maxAttempts } : {}),
  };
}
