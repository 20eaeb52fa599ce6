import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import { INSTANCE_OPERATIONS, OPERATION_STATES } from '../../domain/instances/operations.js';
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

describe('the instance operations model in the schema', () => {
  it('is the same list in code and in the CHECK constraints', async () => {
    expect(await checkedValues('instances_status')).toEqual([...INSTANCE_STATUSES].sort());
    expect(await checkedValues('instance_operations_kind')).toEqual([...INSTANCE_OPERATIONS].sort());
    expect(await checkedValues('instance_operations_state')).toEqual([...OPERATION_STATES].sort());
  });
});
