import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import {
  INSTANCE_OPERATIONS,
  mayBegin,
  OPERATION_RULES,
  OPERATION_STATES,
  statusAfterFailure,
} from '../../domain/instances/operations.js';
import { INSTANCE_STATUSES } from '../../domain/instances/statuses.js';

const database = createDatabase({ url: inject('databaseUrl'), poolSize: 1, namedStatements: false });
afterAll(() => database.close());

/** The values a CHECK constraint of the form `column in (...)` admits. */
async function checkedValues(constraint: string): Promise<string[]> {
  const { rows } = await sql<{ definition: string }>`
    select pg_get_constraintdef(oid) as definition from pg_constraint where conname = ${constraint}`.execute(
    database.db,
  );
  const definition = rows[0]?.definition ?? '';
  return [...definition.matchAll(/'([^']+)'/g)].map((m) => m[1]!).sort();
}

describe('the instance operations model', () => {
  it('is the same list in code and in the CHECK constraints', async () => {
    expect(await checkedValues('instances_status')).toEqual([...INSTANCE_STATUSES].sort());
    expect(await checkedValues('instance_operations_kind')).toEqual([...INSTANCE_OPERATIONS].sort());
    expect(await checkedValues('instance_operations_state')).toEqual([...OPERATION_STATES].sort());
  });

  it('names every status it uses among the instance statuses', () => {
    for (const rule of Object.values(OPERATION_RULES)) {
      for (const status of [...rule.from, rule.during, rule.outcome])
        if (status !== 'unchanged') expect(INSTANCE_STATUSES).toContain(status);
      for (const preempted of rule.preempts) expect(INSTANCE_OPERATIONS).toContain(preempted);
    }
  });

  it('explains a refusal in the order a caller can act on it', () => {
    const idle = { status: 'running' as const, runningOperation: null, migrating: false, suspended: false };
    expect(mayBegin('stop', idle, 'customer')).toEqual({ ok: true });
    expect(mayBegin('start', idle, 'customer')).toMatchObject({ ok: false, code: 'SVC-CONFLICT-409' });
    expect(mayBegin('stop', { ...idle, migrating: true }, 'customer')).toMatchObject({
      ok: false,
      code: 'INSTANCE_MIGRATING',
    });
    const stopping = {
      status: 'stopping' as const,
      runningOperation: 'stop' as const,
      migrating: false,
      suspended: false,
    };
    expect(mayBegin('restart', stopping, 'customer')).toMatchObject({ ok: false, code: 'SVC-OP-409' });
    expect(mayBegin('kill', stopping, 'customer')).toEqual({ ok: true });
    expect(mayBegin('kill', { ...stopping, runningOperation: 'provision' }, 'customer')).toMatchObject({
      ok: false,
      code: 'SVC-OP-409',
    });
  });

  it('holds a suspended instance against its customer only, before any other reason', () => {
    const suspended = {
      status: 'stopped' as const,
      runningOperation: null,
      migrating: true,
      suspended: true,
    };
    expect(mayBegin('start', suspended, 'customer')).toMatchObject({ ok: false, code: 'INSTANCE_SUSPENDED' });
    expect(mayBegin('start', { ...suspended, migrating: false }, 'operator')).toEqual({ ok: true });
  });

  it('puts a failed power action back where it began, and a failed provisioning in error', () => {
    expect(statusAfterFailure('stop', 'running')).toBe('running');
    expect(statusAfterFailure('kill', 'running')).toBe('running');
    expect(statusAfterFailure('provision', 'provisioning')).toBe('error');
  });
});
