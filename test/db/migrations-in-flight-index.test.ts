import { randomUUID } from 'node:crypto';
import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/database.js';
import { countMigrationsInto } from '../../db/repositories/moves/evacuation-queue.js';
import { insertMigration } from '../../db/repositories/moves/migrations.js';
import type { DB } from '../../db/schema.js';
import { nodesOf, type PlanNode } from '../support/query-plans.js';
import { seed } from '../support/seed.js';

let handle: DatabaseHandle;
beforeAll(() => {
  handle = createDatabase({ url: inject('databaseUrl'), poolSize: 2, namedStatements: false });
});
afterAll(() => handle.close());

describe('the count of migrations under way into each target (an evacuation’s per-target limit)', () => {
  it('reads them by the partial index, not by a scan of every migration ever made', async () => {
    const { db, pool } = handle;
    const location = await seed.location(db);
    const [source, target] = [await seed.hypervisor(db, location.id), await seed.hypervisor(db, location.id)];
    const owner = await seed.user(db);
    const instance = await seed.instance(db, {
      userId: owner.id,
      locationId: location.id,
      hypervisorId: source.id,
    });
    const migration = (id: string) =>
      insertMigration(db, {
        id,
        instanceId: instance.id,
        sourceHypervisorId: source.id,
        targetHypervisorId: target.id,
        mode: 'AUTO',
        strategy: 'live',
        operationId: randomUUID(),
        workflowId: `in-flight-index-${id}`,
        requestedBy: 'test',
        reason: null,
        warnings: [],
        networkPlan: {},
      });
    // 6,000 finished migrations copied from a real row, and one under way.
    const template = randomUUID();
    await migration(template);
    await pool.query(
      `insert into migrations
       select (jsonb_populate_record(null::migrations, to_jsonb(m) || jsonb_build_object(
         'id', gen_random_uuid(), 'workflow_id', 'finished-' || g, 'state', 'CLEANED_UP'))).*
       from migrations m, generate_series(1, 6000) g where m.id = $1`,
      [template],
    );
    await pool.query("update migrations set state = 'CLEANED_UP' where id = $1", [template]);
    await migration(randomUUID());
    await pool.query('analyze migrations');

    const sent: CompiledQuery[] = [];
    const recording = new Kysely<DB>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => {
        if (event.level === 'query') sent.push(event.query);
      },
    });
    expect((await countMigrationsInto(recording)).get(target.id)).toBe(1);
    const statement = sent.at(-1)!;
    const explained = await pool.query(`explain (format json) ${statement.sql}`, [...statement.parameters]);
    const nodes = nodesOf(explained.rows[0]['QUERY PLAN'][0].Plan as PlanNode);
    const plan = JSON.stringify(explained.rows[0]['QUERY PLAN'], null, 1);
    expect(
      nodes.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'migrations'),
      plan,
    ).toEqual([]);
    expect(
      nodes.some((n) => n['Index Name'] === 'migrations_in_flight'),
      plan,
    ).toBe(true);
  });
});
