import { randomUUID } from 'node:crypto';
import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/database.js';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { leaseNextTask } from '../../db/repositories/hypervisors/agent-task-leases.js';
import { queueAgentTask } from '../../db/repositories/hypervisors/agent-task-queue.js';
import type { DB } from '../../db/schema.js';
import { nodesOf, type PlanNode } from '../support/query-plans.js';
import { seed } from '../support/seed.js';

let handle: DatabaseHandle;
beforeAll(() => {
  handle = createDatabase({ url: inject('databaseUrl'), poolSize: 2, namedStatements: false });
});
afterAll(() => handle.close());

describe('the lease query of tasks/next', () => {
  it('uses an index, not a scan of the table, beside a month of finished tasks', async () => {
    const { db, pool } = handle;
    const hypervisor = await seed.hypervisor(db);
    const queue = (activityId: string) =>
      queueAgentTask(db, {
        hypervisorId: hypervisor.id,
        type: 'hypervisor.probe',
        params: {},
        taskToken: new Uint8Array([1]),
        workflowId: `lease-index-${randomUUID()}`,
        runId: randomUUID(),
        activityId,
        attempt: 1,
        correlationId: null,
      });
    // A month of finished tasks, 200 a day, copied from a real row so every column is filled as
    // the application fills it.
    const template = await queue('template');
    await pool.query(
      `insert into agent_tasks
       select (jsonb_populate_record(null::agent_tasks, to_jsonb(t) || jsonb_build_object(
         'id', gen_random_uuid(),
         'activity_id', 'finished-' || g,
         'status', 'completed',
         'created_at', now() - g * interval '216 seconds',
         'finished_at', now() - g * interval '216 seconds' + interval '2 seconds'))).*
       from agent_tasks t, generate_series(1, 6000) g
       where t.id = $1`,
      [template],
    );
    await pool.query("update agent_tasks set status = 'completed', finished_at = now() where id = $1", [
      template,
    ]);
    await queue('waiting');
    await pool.query('analyze agent_tasks');

    // The statement exactly as the repository sends it, with its parameters.
    const sent: CompiledQuery[] = [];
    const recording = new Kysely<DB>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => {
        if (event.level === 'query') sent.push(event.query);
      },
    });
    const agent = await createCredential(db, { type: 'agent', hypervisorId: hypervisor.id });
    const leased = await leaseNextTask(recording, hypervisor.id, agent.id, 30_000);
    expect(leased?.type).toBe('hypervisor.probe');
    const statement = sent.at(-1)!;

    const explained = await pool.query(`explain (format json) ${statement.sql}`, [...statement.parameters]);
    const nodes = nodesOf(explained.rows[0]['QUERY PLAN'][0].Plan as PlanNode);
    const scans = nodes.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'agent_tasks');
    expect(scans, JSON.stringify(explained.rows[0]['QUERY PLAN'], null, 1)).toEqual([]);
    expect(nodes.some((n) => /Index/.test(n['Node Type']) && n['Index Name'] !== 'agent_tasks_pkey')).toBe(
      true,
    );
  });
});
