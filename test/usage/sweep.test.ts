import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/database.js';
import { insertUser } from '../../db/repositories/accounts/users.js';
import type { ScratchDatabase } from '../../db/scratch-database.js';
import { USAGE_HOURS_PER_SWEEP } from '../../domain/usage/hours.js';
import { closeEndedHours } from '../../services/usage/close-hours.js';
import { isolatedDatabase } from '../support/database.js';
import { seed } from '../support/seed.js';
import { addHours, at, minutesInto, newInstance } from './history.js';

/**
 * The worker's sweep (docs/usage.md "Closing") on a database of this file's own, where no other
 * file closes hours: from the first hour of the history on, a day per pass, each hour once however
 * many workers sweep at once, none that has not ended.
 */
let isolated: ScratchDatabase;
let handle: DatabaseHandle;
beforeAll(async () => {
  isolated = await isolatedDatabase();
  handle = createDatabase({ url: isolated.url, poolSize: 6, namedStatements: false });
});
afterAll(async () => {
  await handle.close();
  await isolated.drop();
});

describe('the usage sweep', () => {
  it('closes every ended hour once, oldest first, a day per pass, two workers at once', async () => {
    const db = handle.db;
    const first = new Date('2026-03-01T05:00:00Z');
    const user = await insertUser(db, { email: 'sweep@example.test', name: 'Sweep', isAdmin: false });
    const location = await seed.location(db);
    const instance = await at(db, minutesInto(first, 20), (trx) =>
      newInstance(trx, user.id, location.id, null),
    );
    // 30 hours and 30 minutes later: hours first .. first+29 have ended, first+30 has not.
    const now = minutesInto(addHours(first, 30), 30);
    const deps = { db };

    const [a, b] = await Promise.all([closeEndedHours(deps, now), closeEndedHours(deps, now)]);
    expect(a.length + b.length).toBe(USAGE_HOURS_PER_SWEEP);
    const second = await closeEndedHours(deps, now);
    expect(second.map((h) => h.toISOString())).toEqual(
      Array.from({ length: 30 - USAGE_HOURS_PER_SWEEP }, (_, i) =>
        addHours(first, USAGE_HOURS_PER_SWEEP + i).toISOString(),
      ),
    );
    expect(await closeEndedHours(deps, now)).toEqual([]);

    const hours = await db.selectFrom('usage_hours').select('hour').orderBy('hour').execute();
    expect(hours.map((h) => h.hour.toISOString())).toEqual(
      Array.from({ length: 30 }, (_, i) => addHours(first, i).toISOString()),
    );
    const running = await db
      .selectFrom('usage_records')
      .select(['hour', 'quantity'])
      .where('resource_id', '=', instance.id)
      .where('metric', '=', 'instance.running')
      .orderBy('hour')
      .execute();
    expect(running).toHaveLength(30);
    expect(running[0]?.quantity).toBe('0.666667');
    expect(running.slice(1).every((r) => r.quantity === '1.000000')).toBe(true);
  });
});
