import type { Database } from '../../db/database.js';
import { claimHour, lastClosedHour, storeHourRecords } from '../../db/repositories/usage/usage-records.js';
import {
  awaitHistoryWriters,
  firstStateAt,
  statesForHour,
} from '../../db/repositories/usage/usage-states.js';
import { trafficForHour } from '../../db/repositories/usage/usage-traffic.js';
import { type UsageRecordDraft, usageOfHour } from '../../domain/usage/build.js';
import { addHours, hoursToClose } from '../../domain/usage/hours.js';
import { trafficOfHour } from '../../domain/usage/traffic.js';
import type { ServiceDeps } from '../context.js';

/** The records of `hour`, built from the history alone: what its closing stores, and a check of it. */
export async function rebuildHour(db: Database, hour: Date): Promise<UsageRecordDraft[]> {
  return [
    ...usageOfHour(hour, await statesForHour(db, hour)),
    ...trafficOfHour(hour, await trafficForHour(db, hour)),
  ];
}

export type HourClosing = { closed: true; records: number } | { closed: false };

/**
 * Closes `hour` (docs/usage.md "Closing"): waits for every change still being written into the
 * history, then claims the hour, rebuilds it from the history and stores its records, in one
 * transaction that calls nothing outside the database. An hour already closed, or closed at the
 * same moment by another worker, is left as it is. An hour that has not ended is refused (a
 * programming error).
 */
export async function closeHour(
  deps: Pick<ServiceDeps, 'db'>,
  hour: Date,
  now = new Date(),
): Promise<HourClosing> {
  if (addHours(hour, 1).getTime() > now.getTime())
    throw new Error(`hour ${hour.toISOString()} has not ended`);
  await awaitHistoryWriters(deps.db);
  return deps.db.transaction().execute(async (trx) => {
    if (!(await claimHour(trx, hour))) return { closed: false };
    const records = await rebuildHour(trx, hour);
    await storeHourRecords(trx, hour, records);
    return { closed: true, records: records.length };
  });
}

/**
 * The worker's sweep: closes every ended hour after the last closed one (from the first hour of
 * the history, before any), oldest first, a day's worth at most per pass. The hours it closed.
 */
export async function closeEndedHours(deps: Pick<ServiceDeps, 'db'>, now = new Date()): Promise<Date[]> {
  const last = await lastClosedHour(deps.db);
  const hours = hoursToClose(last, last ? null : await firstStateAt(deps.db), now);
  const closed: Date[] = [];
  for (const hour of hours) if ((await closeHour(deps, hour, now)).closed) closed.push(hour);
  return closed;
}
