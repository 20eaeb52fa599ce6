import type { Database } from '../db/database.js';
import { findHypervisorIdByName } from '../db/repositories/hypervisors/hypervisors.js';
import { findInstancesNamed } from '../db/repositories/instances/instances.js';
import { UsageError } from './command.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How many of the instances sharing a name an ambiguity lists. */
const LISTED_MATCHES = 20;

/** The one positional argument of a command that takes an instance or a hypervisor: its uuid or name. */
export function referenceArgument(positionals: readonly string[], what: 'instance' | 'hypervisor'): string {
  const [value, ...extra] = positionals;
  if (!value) throw new UsageError(`name the ${what} by its uuid or its name`);
  if (extra.length > 0) throw new UsageError(`one ${what} at a time (also given: ${extra.join(' ')})`);
  return value;
}

/**
 * The uuid of the instance a reference names: a uuid as it is (an unknown one is the service's
 * 404), else the live instance of that name. Names are not unique, so one that several instances
 * share is refused with the list of them, to be named by uuid.
 */
export async function instanceByReference(db: Database, reference: string): Promise<string> {
  if (UUID.test(reference)) return reference.toLowerCase();
  const matches = await findInstancesNamed(db, reference, LISTED_MATCHES + 1);
  if (matches.length === 0) throw new UsageError(`no instance is named ${reference} (nor is it a uuid)`);
  if (matches.length === 1) return matches[0]!.id;
  const listed = matches
    .slice(0, LISTED_MATCHES)
    .map(
      (m) =>
        `  ${m.id}  ${m.status}  on ${m.hypervisor_name ?? '-'}  of ${m.user_email}  created ${m.created_at.toISOString()}`,
    );
  const count = matches.length > LISTED_MATCHES ? `more than ${LISTED_MATCHES}` : String(matches.length);
  const more = matches.length > LISTED_MATCHES ? ['  …'] : [];
  throw new UsageError(
    [
      `${count} instances are named ${reference}; name the one you mean by its uuid:`,
      ...listed,
      ...more,
    ].join('\n'),
  );
}

/** The uuid of the hypervisor a reference names: a uuid as it is, else the hypervisor of that (unique) name. */
export async function hypervisorByReference(
  db: Database,
  reference: string,
  option?: string,
): Promise<string> {
  if (UUID.test(reference)) return reference.toLowerCase();
  const id = await findHypervisorIdByName(db, reference);
  if (id) return id;
  const given = option ? `--${option} ${reference}` : reference;
  throw new UsageError(`${given}: no hypervisor is named ${reference} (nor is it a uuid)`);
}

/** An optional option naming an instance, resolved as `instanceByReference`. */
export async function optionalInstance(db: Database, value: string | undefined): Promise<string | undefined> {
  return value === undefined ? undefined : instanceByReference(db, value);
}

/** An optional option naming a hypervisor, resolved as `hypervisorByReference`. */
export async function optionalHypervisor(
  db: Database,
  value: string | undefined,
  option: string,
): Promise<string | undefined> {
  return value === undefined ? undefined : hypervisorByReference(db, value, option);
}
