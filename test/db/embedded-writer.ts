/**
 * One process of the embedded database test: `WRITERS` connections of a pool with named
 * statements, each running transactions that take the shared counter's row and record their own
 * ledger line. Run as `node --import tsx embedded-writer.ts <url> <process> <transactions>`.
 */
import { sql } from 'kysely';
import { createDatabase } from '../../db/database.js';

const [url, processName, count] = process.argv.slice(2) as [string, string, string];
const WRITERS = 4;
const handle = createDatabase({ url, poolSize: WRITERS, namedStatements: true });
let next = 0;
async function writer(): Promise<void> {
  for (let i = next++; i < Number(count); i = next++) {
    await handle.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{
        n: number;
      }>`select n from embedded_counter where id = 1 for update`.execute(trx);
      await sql`update embedded_counter set n = ${rows[0]!.n + 1} where id = 1`.execute(trx);
      await sql`insert into embedded_ledger (line, counter_at) values (${`${processName}:${i}`}, ${rows[0]!.n + 1})`.execute(
        trx,
      );
    });
  }
}
await Promise.all(Array.from({ length: WRITERS }, writer));
await handle.close();
