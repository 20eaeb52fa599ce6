import type { Kysely } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // The W3C `traceparent` of the activity that queued the task, while traces are on: the agent
  // runs the task as a span of that trace, and its reports continue it.
  await db.schema.alterTable('agent_tasks').addColumn('trace_parent', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('agent_tasks').dropColumn('trace_parent').execute();
}
