/**
 * The control-plane time of a backup and of a restore in place, with a zero-latency driver: what is
 * left is the panel's own work (the operation's compare-and-set, the workflow, its agent round
 * trips, the bookkeeping). Each round on one instance: a backup through `POST …/backups`, counted
 * from sending the request to seeing the backup `available` and the instance settled; a restore
 * from it through `POST …/backups/{backup}/restore`, counted to the instance settled `running`;
 * then the backup is deleted through the API (not counted), so the rounds stay under
 * MAX_BACKUPS_PER_INSTANCE. "Settled" is seen by polling the rows every 2 ms on a connection of the
 * bench's own.
 */

import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { DB } from '../db/schema.js';
import type { ServiceDeps } from '../services/context.js';
import { runningInstance } from './bench-instance.js';

const POLL_INTERVAL_MS = 2;
const SETTLE_LIMIT_MS = 10_000;

export interface BackupTimes {
  readonly backupMs: number[];
  readonly restoreMs: number[];
  /** Request to 202, backups and restores together. */
  readonly acceptedMs: number[];
  readonly failures: string[];
}

const instanceState = precompiled((db: Kysely<DB>, instanceId: string) =>
  db.selectFrom('instances').select(['status', 'operation_id']).where('id', '=', instanceId),
);
const backupState = precompiled((db: Kysely<DB>, backupId: string) =>
  db.selectFrom('instance_backups').select('state').where('id', '=', backupId),
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `done` says what the rows settled in, or gives up at the limit. */
async function settled(check: () => Promise<string | undefined>): Promise<string | undefined> {
  const deadline = performance.now() + SETTLE_LIMIT_MS;
  for (;;) {
    const outcome = await check();
    if (outcome !== undefined) return outcome;
    if (performance.now() >= deadline) return undefined;
    await sleep(POLL_INTERVAL_MS);
  }
}

export async function runBackupsAndRestores(input: {
  deps: ServiceDeps;
  pollDb: Database;
  apiUrl: string;
  clientKey: string;
  userId: string;
  locationId: string;
  hypervisorId: string;
  rounds: number;
}): Promise<BackupTimes> {
  const times: BackupTimes = { backupMs: [], restoreMs: [], acceptedMs: [], failures: [] };
  const instance = await runningInstance(input.deps, {
    name: 'bench-backups',
    userId: input.userId,
    locationId: input.locationId,
    hypervisorId: input.hypervisorId,
  });

  const call = async (method: string, path: string) => {
    const t0 = performance.now();
    const response = await fetch(`${input.apiUrl}/api/client/cloud/${instance.id}${path}`, {
      method,
      headers: { Authorization: `Bearer ${input.clientKey}` },
    });
    const body = (await response.json().catch(() => undefined)) as
      | { attributes?: { uuid?: string }; errors?: { code: string }[] }
      | undefined;
    return { t0, status: response.status, body, acceptedMs: performance.now() - t0 };
  };
  const instanceSettled = async (status: string) => {
    const [row] = await instanceState(input.pollDb, instance.id);
    if (!row || row.operation_id !== null) return undefined;
    return row.status === status ? 'ok' : `settled ${row.status}`;
  };

  for (let round = 0; round < input.rounds; round++) {
    const made = await call('POST', '/backups');
    const backupId = made.body?.attributes?.uuid;
    if (made.status !== 202 || !backupId) {
      times.failures.push(`backup: ${made.status} ${made.body?.errors?.[0]?.code ?? ''}`.trim());
      continue;
    }
    times.acceptedMs.push(made.acceptedMs);
    const backedUp = await settled(async () => {
      const [backup] = await backupState(input.pollDb, backupId);
      if (backup?.state === 'creating') return undefined;
      const instanceOutcome = await instanceSettled('running');
      if (instanceOutcome === undefined) return undefined;
      return backup?.state === 'available' ? instanceOutcome : `backup ${backup?.state}`;
    });
    if (backedUp !== 'ok') {
      times.failures.push(`backup: ${backedUp ?? `not settled in ${SETTLE_LIMIT_MS / 1000} s`}`);
      continue;
    }
    times.backupMs.push(performance.now() - made.t0);

    const restore = await call('POST', `/backups/${backupId}/restore`);
    if (restore.status !== 202) {
      times.failures.push(`restore: ${restore.status} ${restore.body?.errors?.[0]?.code ?? ''}`.trim());
    } else {
      times.acceptedMs.push(restore.acceptedMs);
      const restored = await settled(() => instanceSettled('running'));
      if (restored === 'ok') times.restoreMs.push(performance.now() - restore.t0);
      else times.failures.push(`restore: ${restored ?? `not settled in ${SETTLE_LIMIT_MS / 1000} s`}`);
    }

    const removed = await call('DELETE', `/backups/${backupId}`);
    if (removed.status === 202) await settled(() => instanceSettled('running'));
  }
  return times;
}

/** p50 and p99 of a list of times. */
export function quantiles(values: readonly number[]): { p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99) };
}
