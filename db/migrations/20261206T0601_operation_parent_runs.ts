import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports nothing from the application and is never edited once landed.

export async function up(db: Kysely<any>): Promise<void> {
  // An operation whose run is started as another run's child (a plan change's move): the parent
  // run to start in its place when its own was never started, recorded in the transaction that
  // begins it, so a crash before the start loses neither the move nor what the move was for.
  // `parent_operation` is the operation its run is found by (its search attribute). All or none.
  await db.schema
    .alterTable('instance_operations')
    .addColumn('parent_workflow_id', 'text')
    .addColumn('parent_workflow_type', 'text')
    .addColumn('parent_workflow_input', 'jsonb')
    .addColumn('parent_operation', 'text')
    .execute();
  await sql`alter table instance_operations add constraint instance_operations_parent_whole
    check ((parent_workflow_id is null) = (parent_workflow_type is null)
       and (parent_workflow_id is null) = (parent_workflow_input is null)
       and (parent_workflow_id is null) = (parent_operation is null))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table instance_operations drop constraint instance_operations_parent_whole`.execute(db);
  await db.schema
    .alterTable('instance_operations')
    .dropColumn('parent_workflow_id')
    .dropColumn('parent_workflow_type')
    .dropColumn('parent_workflow_input')
    .dropColumn('parent_operation')
    .execute();
}
