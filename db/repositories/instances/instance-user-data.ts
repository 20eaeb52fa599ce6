import { sql } from 'kysely';
import type { UserDataKind } from '../../../domain/instances/user-data.js';
import type { Database } from '../../database.js';

// A customer's user-data: its summary on the instance row (what the envelope shows), its content
// sealed in a table of its own (what only the tasks to the hypervisor carry). Written together.

export interface StoredUserData {
  readonly kind: UserDataKind;
  readonly bytes: number;
  readonly sha256: string;
  /** The content sealed with SECRETS_KEY (platform/secrets.ts). */
  readonly sealed: string;
}

/** The instance row's columns that say what its user-data is (all null: none). */
export const userDataSummary = (userData: StoredUserData | null) => ({
  user_data_kind: userData?.kind ?? null,
  user_data_bytes: userData?.bytes ?? null,
  user_data_sha256: userData?.sha256 ?? null,
});

/** The instance's user-data replaced, or removed with null. Run it in the transaction of the change it belongs to. */
export async function setInstanceUserData(
  db: Database,
  instanceId: string,
  userData: StoredUserData | null,
): Promise<void> {
  await db
    .updateTable('instances')
    .set({ ...userDataSummary(userData), updated_at: sql`now()` })
    .where('id', '=', instanceId)
    .execute();
  if (!userData) {
    await db.deleteFrom('instance_user_data').where('instance_id', '=', instanceId).execute();
    return;
  }
  await db
    .insertInto('instance_user_data')
    .values({ instance_id: instanceId, sealed: userData.sealed, updated_at: sql`now()` })
    .onConflict((oc) =>
      oc.column('instance_id').doUpdateSet({ sealed: userData.sealed, updated_at: sql`now()` }),
    )
    .execute();
}

/** What a create or rebuild task gives the hypervisor: the kind and the sealed content; none: undefined. */
export async function findSealedUserData(
  db: Database,
  instanceId: string,
): Promise<{ kind: UserDataKind; content: string } | undefined> {
  const row = await db
    .selectFrom('instances as i')
    .innerJoin('instance_user_data as u', 'u.instance_id', 'i.id')
    .select(['i.user_data_kind', 'u.sealed'])
    .where('i.id', '=', instanceId)
    .executeTakeFirst();
  return row?.user_data_kind ? { kind: row.user_data_kind, content: row.sealed } : undefined;
}
