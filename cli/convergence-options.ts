import {
  CONVERGENCE_BOUNDS,
  type ConvergenceRequest,
  POST_COPY_MODES,
  type PostCopyMode,
} from '../domain/migrations/convergence.js';
import { UsageError } from './command.js';

// A migration's convergence policy on the command line (docs/migration.md "Convergence"): each
// option a figure of the request's `convergence`, checked against the same bounds before anything
// is read; a figure left out is the configured default's.

/** The options, as `cloudsvc:migration:start` and `:preflight` take them. */
export const CONVERGENCE_OPTIONS = {
  'max-downtime-ms': { type: 'string' },
  'bandwidth-mbps': { type: 'string' },
  'auto-converge': { type: 'string' },
  'auto-converge-initial': { type: 'string' },
  'auto-converge-step': { type: 'string' },
  'post-copy': { type: 'string' },
  'completion-timeout-per-gib': { type: 'string' },
  'progress-timeout': { type: 'string' },
} as const;

export const CONVERGENCE_USAGE =
  '[--max-downtime-ms=MS] [--bandwidth-mbps=MBPS|none] [--auto-converge=on|off] [--auto-converge-initial=PCT] ' +
  '[--auto-converge-step=PCT] [--post-copy=never|allow|after_timeout] [--completion-timeout-per-gib=S] ' +
  '[--progress-timeout=S]';

/** A command's parsed options; the convergence ones are strings. */
type Options = Readonly<Record<string, string | boolean | undefined>>;

const given = (options: Options, option: string) => {
  const value = options[option];
  return typeof value === 'string' ? value : undefined;
};

function figure(options: Options, option: string, name: keyof typeof CONVERGENCE_BOUNDS) {
  const value = given(options, option);
  if (value === undefined) return undefined;
  const { min, max } = CONVERGENCE_BOUNDS[name];
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${option} must be a whole number from ${min} to ${max}`);
  return n;
}

function onOff(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'on' && value !== 'off') throw new UsageError('--auto-converge must be on or off');
  return value === 'on';
}

function postCopy(value: string | undefined): PostCopyMode | undefined {
  if (value === undefined) return undefined;
  const mode = POST_COPY_MODES.find((m) => m === value);
  if (!mode) throw new UsageError(`--post-copy must be one of ${POST_COPY_MODES.join(', ')}`);
  return mode;
}

/** The figures given; undefined when no option was. */
export function convergenceOptions(options: Options): ConvergenceRequest | undefined {
  if (Object.keys(CONVERGENCE_OPTIONS).every((name) => options[name] === undefined)) return undefined;
  const bandwidth = given(options, 'bandwidth-mbps');
  return {
    max_downtime_ms: figure(options, 'max-downtime-ms', 'max_downtime_ms'),
    bandwidth_mbps: bandwidth === 'none' ? null : figure(options, 'bandwidth-mbps', 'bandwidth_mbps'),
    auto_converge: {
      enabled: onOff(given(options, 'auto-converge')),
      initial_throttle_pct: figure(options, 'auto-converge-initial', 'initial_throttle_pct'),
      step_throttle_pct: figure(options, 'auto-converge-step', 'step_throttle_pct'),
    },
    post_copy: postCopy(given(options, 'post-copy')),
    completion_timeout_s_per_gib: figure(
      options,
      'completion-timeout-per-gib',
      'completion_timeout_s_per_gib',
    ),
    progress_timeout_s: figure(options, 'progress-timeout', 'progress_timeout_s'),
  };
}
