import { MIGRATION_STATES } from '../../../../domain/migrations/states.js';
import { pages } from '../../paths.js';
import type { ListPageInput } from './query.js';

export interface HypervisorChoice {
  readonly id: string;
  readonly name: string;
}

const problemOf = (input: ListPageInput, field: string) =>
  input.problems.find((p) => p.field === field)?.detail;

/** A labelled input with its problem, if the query had one, tied to it for screen readers. */
function Field(props: { id: string; label: string; problem: string | undefined; children: unknown }) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.problem && (
        <div id={`${props.id}-problem`} class="field-error">
          {props.problem}
        </div>
      )}
    </div>
  );
}

const invalid = (problem: string | undefined, id: string) =>
  problem ? { 'aria-invalid': 'true', 'aria-describedby': `${id}-problem` } : {};

/** The list's filters, a plain GET form: the address of a filtered list can be kept and shared. */
export function ListFilters(props: { input: ListPageInput; hypervisors: readonly HypervisorChoice[] }) {
  const { input } = props;
  const state = problemOf(input, 'state');
  const instance = problemOf(input, 'instance');
  const hypervisor = problemOf(input, 'hypervisor');
  const since = problemOf(input, 'since');
  const until = problemOf(input, 'until');
  return (
    <form method="get" action={pages.migrations} class="filters panel" aria-label="Filter migrations">
      <Field id="f-state" label="State" problem={state}>
        <select id="f-state" name="state" {...invalid(state, 'f-state')}>
          <option value="">Any</option>
          {MIGRATION_STATES.map((s) => (
            <option value={s} selected={input.form.state === s}>
              {s}
            </option>
          ))}
        </select>
      </Field>
      <Field id="f-instance" label="Instance (uuid)" problem={instance}>
        <input
          id="f-instance"
          name="instance"
          type="text"
          size={38}
          value={input.form.instance}
          {...invalid(instance, 'f-instance')}
        />
      </Field>
      <Field id="f-hypervisor" label="Hypervisor (from or to)" problem={hypervisor}>
        <select id="f-hypervisor" name="hypervisor" {...invalid(hypervisor, 'f-hypervisor')}>
          <option value="">Any</option>
          {props.hypervisors.map((h) => (
            <option value={h.id} selected={input.form.hypervisor === h.id}>
              {h.name}
            </option>
          ))}
        </select>
      </Field>
      <Field id="f-since" label="Requested from (UTC)" problem={since}>
        <input
          id="f-since"
          name="since"
          type="datetime-local"
          value={input.form.since}
          {...invalid(since, 'f-since')}
        />
      </Field>
      <Field id="f-until" label="Requested before (UTC)" problem={until}>
        <input
          id="f-until"
          name="until"
          type="datetime-local"
          value={input.form.until}
          {...invalid(until, 'f-until')}
        />
      </Field>
      <div>
        <button type="submit">Filter</button> <a href={pages.migrations}>Clear</a>
      </div>
    </form>
  );
}
