import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../db/database.js';

/**
 * db/schema.ts (with db/schema/) is kept by hand beside the migrations; this holds it to the database the migrations
 * build, so a column added, dropped or made nullable in one place and not the other fails here
 * instead of at the first query that touches it.
 */

interface TableShape {
  columns: string[];
  nullable: string[];
}

// db/schema.ts and every group of tables in db/schema/ and its rooms, read as one source.
const schemaDir = new URL('../../db/schema/', import.meta.url);
const schemaFiles = [
  new URL('../../db/schema.ts', import.meta.url),
  ...readdirSync(schemaDir, { encoding: 'utf8', recursive: true })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => new URL(name, schemaDir)),
];
const source = schemaFiles
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n')
  .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');

const aliases = new Map(
  [...source.matchAll(/^(?:export )?type (\w+)(?:<[^=]*>)? =([^;]+);/gm)].map((m) => [m[1]!, m[2]!]),
);
const interfaces = new Map(
  [...source.matchAll(/^export interface (\w+) \{([\s\S]*?)^\}/gm)].map((m) => [m[1]!, m[2]!]),
);

function properties(body: string): [name: string, type: string][] {
  return [...body.matchAll(/^\s*(\w+)\??:\s*([^;]+);/gm)].map((m) => [m[1]!, m[2]!.trim()]);
}

/** `| null` written out, or a local alias such as NullableTimestamp whose definition admits null. */
function admitsNull(type: string): boolean {
  const alias = aliases.get(type.match(/^\w+/)?.[0] ?? '');
  return /\bnull\b/.test(type) || (alias !== undefined && /\bnull\b/.test(alias));
}

function declaredShape(interfaceName: string): TableShape {
  const body = interfaces.get(interfaceName);
  if (body === undefined) throw new Error(`db/schema.ts has no interface ${interfaceName}`);
  const columns = properties(body);
  return {
    columns: columns.map(([name]) => name).sort(),
    nullable: columns
      .filter(([, type]) => admitsNull(type))
      .map(([name]) => name)
      .sort(),
  };
}

const declaredTables = new Map(
  properties(interfaces.get('DB') ?? '').map(([table, interfaceName]) => [
    table,
    declaredShape(interfaceName),
  ]),
);

async function migratedTables(): Promise<Map<string, TableShape>> {
  const { db, close } = createDatabase({ url: inject('databaseUrl'), poolSize: 1, namedStatements: false });
  const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: 'YES' | 'NO' }>`
    select table_name, column_name, is_nullable
    from information_schema.columns
    where table_schema = 'public' and table_name not like 'kysely\\_migration%'`
    .execute(db)
    .finally(close);
  const tables = new Map<string, TableShape>();
  for (const row of rows) {
    const shape = tables.get(row.table_name) ?? { columns: [], nullable: [] };
    shape.columns.push(row.column_name);
    if (row.is_nullable === 'YES') shape.nullable.push(row.column_name);
    tables.set(row.table_name, shape);
  }
  for (const shape of tables.values()) {
    shape.columns.sort();
    shape.nullable.sort();
  }
  return tables;
}

describe('db/schema.ts against the migrated database', () => {
  let migrated: Map<string, TableShape>;
  beforeAll(async () => {
    migrated = await migratedTables();
  });

  it('declares every table the migrations create, and no other', () => {
    expect([...declaredTables.keys()].sort(), 'db/schema.ts (+) against the database (-)').toEqual(
      [...migrated.keys()].sort(),
    );
  });

  it.each([...declaredTables])(
    '%s: same columns, and null allowed exactly where the column is nullable',
    (table, declared) => {
      expect(migrated.get(table), `table ${table} is not in the database`).toBeDefined();
      expect(declared, 'db/schema.ts (+) against the database (-)').toEqual(migrated.get(table));
    },
  );
});
