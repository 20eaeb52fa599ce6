import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // Agent reports are idempotent on (task_id, sequence) (SPEC.md §6 rule 1): the first answer is
  // stored and a repeated pair gets it back without a second effect.
  await db.schema
    .createTable('agent_task_reports')
    .addColumn('task_id', 'uuid', (c) => c.notNull().references('agent_tasks.id').onDelete('cascade'))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('response', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('agent_task_reports_pk', ['task_id', 'sequence'])
    .addCheckConstraint(
      'agent_task_reports_kind',
      sql`kind in ('started', 'progress', 'completed', 'failed')`,
    )
    .execute();

  await db.schema
    .createTable('instance_metrics')
    .addColumn('instance_id', 'uuid', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .addColumn('sampled_at', 'timestamptz', (c) => c.notNull())
    .addColumn('hypervisor_id', 'uuid', (c) => c.notNull().references('hypervisors.id').onDelete('cascade'))
    .addColumn('cpu_percent', 'real', (c) => c.notNull())
    .addColumn('memory_used_mb', 'integer', (c) => c.notNull())
    .addColumn('disk_read_bytes', 'bigint', (c) => c.notNull())
    .addColumn('disk_write_bytes', 'bigint', (c) => c.notNull())
    .addColumn('net_rx_bytes', 'bigint', (c) => c.notNull())
    .addColumn('net_tx_bytes', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('instance_metrics_pk', ['instance_id', 'sampled_at'])
    .execute();
  await db.schema
    .createIndex('instance_metrics_sampled')
    .on('instance_metrics')
    .column('sampled_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('instance_metrics').execute();
  await db.schema.dropTable('agent_task_reports').execute();
}
