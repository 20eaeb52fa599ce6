import { z } from 'zod';
import {
  boundedInt,
  CONVERGENCE_BOUNDS,
  type ConvergencePolicy,
  type ConvergenceRequest,
  POST_COPY_MODES,
} from '../../../domain/migrations/convergence.js';

// The wizard's convergence policy (docs/migration.md "Convergence"): each figure a field of the
// start's form, left empty for the configured default (shown as the field's placeholder), held to
// the bounds the admin API's request is.

type Figure = keyof typeof CONVERGENCE_BOUNDS;
const FIGURES: { name: Figure; label: string; of: (d: ConvergencePolicy) => number | null }[] = [
  { name: 'max_downtime_ms', label: 'Max downtime (ms)', of: (d) => d.max_downtime_ms },
  { name: 'bandwidth_mbps', label: 'Bandwidth cap (Mbit/s)', of: (d) => d.bandwidth_mbps },
  {
    name: 'initial_throttle_pct',
    label: 'Auto-converge initial throttle (%)',
    of: (d) => d.auto_converge.initial_throttle_pct,
  },
  {
    name: 'step_throttle_pct',
    label: 'Auto-converge step (%)',
    of: (d) => d.auto_converge.step_throttle_pct,
  },
  {
    name: 'completion_timeout_s_per_gib',
    label: 'Completion timeout (s per GiB)',
    of: (d) => d.completion_timeout_s_per_gib,
  },
  { name: 'progress_timeout_s', label: 'Progress timeout (s)', of: (d) => d.progress_timeout_s },
];

const empty = (v: unknown) => (v === '' ? undefined : v);
const figure = (name: Figure) =>
  z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), boundedInt(name).optional());

/** The form's convergence fields, each empty or within its bounds. */
export const ConvergenceFields = z.object({
  max_downtime_ms: figure('max_downtime_ms'),
  bandwidth_mbps: figure('bandwidth_mbps'),
  auto_converge: z.preprocess(empty, z.enum(['on', 'off']).optional()),
  initial_throttle_pct: figure('initial_throttle_pct'),
  step_throttle_pct: figure('step_throttle_pct'),
  post_copy: z.preprocess(empty, z.enum(POST_COPY_MODES).optional()),
  completion_timeout_s_per_gib: figure('completion_timeout_s_per_gib'),
  progress_timeout_s: figure('progress_timeout_s'),
});

/** The request's `convergence` from the form's fields. */
export function convergenceOfForm(f: z.infer<typeof ConvergenceFields>): ConvergenceRequest {
  return {
    max_downtime_ms: f.max_downtime_ms,
    bandwidth_mbps: f.bandwidth_mbps,
    auto_converge: {
      enabled: f.auto_converge === undefined ? undefined : f.auto_converge === 'on',
      initial_throttle_pct: f.initial_throttle_pct,
      step_throttle_pct: f.step_throttle_pct,
    },
    post_copy: f.post_copy,
    completion_timeout_s_per_gib: f.completion_timeout_s_per_gib,
    progress_timeout_s: f.progress_timeout_s,
  };
}

/** The fields, each empty for its default, which the placeholder shows. */
export function ConvergenceInputs(props: { defaults: ConvergencePolicy }) {
  const d = props.defaults;
  return (
    <fieldset>
      <legend>Convergence of a live move (empty: the default)</legend>
      {FIGURES.map((f) => (
        <p>
          <label for={`c-${f.name}`}>{f.label}</label>{' '}
          <input
            type="number"
            id={`c-${f.name}`}
            name={f.name}
            min={CONVERGENCE_BOUNDS[f.name].min}
            max={CONVERGENCE_BOUNDS[f.name].max}
            placeholder={String(f.of(d) ?? 'no cap')}
          />
        </p>
      ))}
      <p>
        <label for="c-auto_converge">Auto-converge</label>{' '}
        <select id="c-auto_converge" name="auto_converge">
          <option value="">default ({d.auto_converge.enabled ? 'on' : 'off'})</option>
          <option value="on">on</option>
          <option value="off">off</option>
        </select>
      </p>
      <p>
        <label for="c-post_copy">Post-copy</label>{' '}
        <select id="c-post_copy" name="post_copy">
          <option value="">default ({d.post_copy})</option>
          {POST_COPY_MODES.map((mode) => (
            <option value={mode}>{mode}</option>
          ))}
        </select>
      </p>
    </fieldset>
  );
}
