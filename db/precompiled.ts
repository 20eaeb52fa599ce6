import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import { queryDirect } from './database.js';
import type { DB } from './schema.js';

/**
 * A query for a hot path, built and compiled by Kysely once, then run with new parameters on
 * each call: the SQL text does not depend on the values, only on the query's shape. Building and
 * compiling the query tree, and Kysely's connection layers, cost as much as the driver's whole
 * round trip on a primary-key read; on a root handle the SQL goes to the pool directly.
 *
 * `build` receives one placeholder per argument and must use each exactly as a value.
 */
export function precompiled<Args extends unknown[], Row>(
  build: (db: Kysely<DB>, ...placeholders: Args) => Compilable<Row>,
) {
  let template: { sql: string; slots: (number | { value: unknown })[] } | undefined;

  const compile = (db: Kysely<DB>, arity: number) => {
    const markers = Array.from({ length: arity }, (_, i) => `\u0000precompiled:${i}`);
    const compiled = build(db, ...(markers as Args)).compile();
    return {
      sql: compiled.sql,
      // Each parameter is either one of the call's arguments or a constant of the query.
      slots: compiled.parameters.map((p) => {
        const index = markers.indexOf(p as string);
        return index >= 0 ? index : { value: p };
      }),
    };
  };

  return async (db: Kysely<DB>, ...args: Args): Promise<Row[]> => {
    template ??= compile(db, args.length);
    const parameters = template.slots.map((slot) => (typeof slot === 'number' ? args[slot] : slot.value));
    const direct = await queryDirect<Row>(db, template.sql, parameters);
    if (direct) return direct;
    const result = await db.executeQuery<Row>(CompiledQuery.raw(template.sql, parameters));
    return result.rows;
  };
}
