import {
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type SelectType,
  type SqlBool,
  sql,
} from 'kysely';
import { offsetOf, type PageRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import type { DB } from '../../schema.js';
import { ARTIFACT_TABLES, type ArtifactKind } from './artifacts.js';

type Table<K extends ArtifactKind> = (typeof ARTIFACT_TABLES)[K];
type ArtifactTable = Table<ArtifactKind>;
type Column<K extends ArtifactKind> = keyof DB[Table<K>] & string;
/** A column of either table: what a query built over either may name. */
type EitherColumn = Column<'backup'> | Column<'snapshot'>;
type State<K extends ArtifactKind> = SelectType<DB[Table<K>]['state']>;

/** A row of `kind` as its repository selects it: the columns it names, typed by its table. */
export type ArtifactRow<K extends ArtifactKind, C extends readonly Column<K>[]> = {
  [P in C[number]]: SelectType<DB[Table<K>][P]>;
};

/** The actions a customer takes an artifact for (domain/backups.ts BACKUP_ACTIONS, SNAPSHOT_ACTIONS). */
type Actions<S> = Record<string, { readonly from: readonly S[]; readonly to: S }>;

/** What a take asks beyond the state, written against either table (backups.ts: a delete's guard). */
export type TakeGuard = (eb: ExpressionBuilder<DB, ArtifactTable>) => Expression<SqlBool>;

/**
 * The row queries a backup's and a snapshot's repository share, for the table of `kind`: each
 * repository names its columns and its actions and exports these under its own names. Kysely types
 * a query only over tables it knows by name, not over one a type parameter picks, so the queries
 * are built over either table (the columns both have) and their rows typed for `kind` here, once.
 */
export function artifactRows<
  K extends ArtifactKind,
  const C extends readonly Column<K>[],
  A extends Actions<State<K>>,
>(kind: K, columns: C, actions: A) {
  type Row = ArtifactRow<K, C>;
  const table: ArtifactTable = ARTIFACT_TABLES[kind];
  const selected = columns as readonly EitherColumn[];
  const keptOfInstance = (db: Database, instanceId: string) =>
    db.selectFrom(table).where('instance_id', '=', instanceId).where('state', '<>', 'deleted');

  return {
    /** A new artifact (`creating`); `own` sets the columns only its kind has. */
    async insert(
      db: Database,
      artifact: { id: string; instanceId: string; userId: string; name: string },
      own: Partial<Insertable<DB[Table<K>]>> = {},
    ): Promise<Row> {
      const row = await db
        .insertInto(table)
        .values({
          id: artifact.id,
          instance_id: artifact.instanceId,
          user_id: artifact.userId,
          name: artifact.name,
          ...own,
        })
        .returning(selected)
        .executeTakeFirstOrThrow();
      return row as Row;
    },

    /** One artifact of one instance; a deleted one, or another instance's, is none. */
    async findOfInstance(db: Database, instanceId: string, id: string): Promise<Row | undefined> {
      const row = await keptOfInstance(db, instanceId)
        .select(selected)
        .where('id', '=', id)
        .executeTakeFirst();
      return row as Row | undefined;
    },

    /** The instance's artifacts, newest first, deleted ones left out. */
    async listOfInstance(db: Database, instanceId: string, page: PageRequest) {
      const base = keptOfInstance(db, instanceId);
      const [rows, total] = await Promise.all([
        base
          .select(selected)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(page.perPage)
          .offset(offsetOf(page))
          .execute(),
        base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
      ]);
      return { rows: rows as Row[], total: Number(total.total) };
    },

    /**
     * The compare-and-set that takes an artifact for a customer's action: it must still be in the
     * state the caller read (one the action starts from), and pass `guard` if one is given. Returns
     * whether it was taken (moved to the action's state).
     */
    async takeFor(
      db: Database,
      artifact: { id: string; instance_id: string; state: State<K> },
      action: keyof A,
      guard?: TakeGuard,
    ): Promise<boolean> {
      const rule = actions[action]!;
      if (!rule.from.includes(artifact.state)) return false;
      const result = await db
        .updateTable(table)
        .set({ state: rule.to })
        .where('id', '=', artifact.id)
        .where('instance_id', '=', artifact.instance_id)
        .where('state', '=', artifact.state)
        .$if(guard !== undefined, (query) => query.where(guard!))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
