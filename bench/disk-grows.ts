/**
 * Root disk grows of one instance with a zero-latency driver, each through the Client API and
 * counted from sending the request to seeing the grow applied on the agent: the instance settled
 * with the size its hypervisor reported. Each round grows the disk by 1 MB, within a plan of the
 * bench's own. "Applied" is seen by polling the instance row every 2 ms on a connection of the
 * bench's own.
 */

import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import { upsertPlan } from '../db/repositories/catalogue/catalog.js';
import type { DB } from '../db/schema.js';
import { runningInstance } from './bench-instance.js';
import type { ApiRounds } from './parts/api-rounds.js';

const POLL_INTERVAL_MS = 2;
const SETTLE_LIMIT_MS = 10_000;
const START_MB = 2048;

export interface DiskGrowTimes {
  readonly growMs: number[];
  readonly failures: string[];
}

const rootDisk = precompiled((db: Kysely<DB>, instanceId: string) =>
  db.selectFrom('instances').select(['operation_id', 'disk_mb']).where('id', '=', instanceId),
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Until the instance has no operation; then whether its disk has the size asked, and why not. */
async function grown(db: Database, instanceId: string, sizeMb: number): Promise<string> {
  const deadline = performance.now() + SETTLE_LIMIT_MS;
  for (;;) {
    const [row] = await rootDisk(db, instanceId);
    if (row && row.operation_id === null)
      return row.disk_mb === sizeMb ? 'ok' : `the disk has ${row.disk_mb} MB, not ${sizeMb}`;
    if (performance.now() >= deadline) return `not settled in ${SETTLE_LIMIT_MS / 1000} s`;
    await sleep(POLL_INTERVAL_MS);
  }
}

export async function runDiskGrows(input: ApiRounds): Promise<DiskGrowTimes> {
  const times: DiskGrowTimes = { growMs: [], failures: [] };
  const plan = await upsertPlan(input.deps.db, {
    code: 'bench-storage',
    name: 'Bench storage',
    cpu_cores: 1,
    memory_mb: 512,
    disk_mb: START_MB + input.rounds,
  });
  const instance = await runningInstance(input.deps, {
    name: 'bench-storage',
    userId: input.userId,
    locationId: input.locationId,
    hypervisorId: input.hypervisorId,
    size: { cpu_cores: 1, memory_mb: 512, disk_mb: START_MB },
  });
  await input.deps.db
    .updateTable('instances')
    .set({ plan_id: plan.id })
    .where('id', '=', instance.id)
    .execute();

  for (let round = 1; round <= input.rounds; round++) {
    const sizeMb = START_MB + round;
    const t0 = performance.now();
    const response = await fetch(`${input.apiUrl}/api/client/cloud/${instance.id}/storage/root/resize`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${input.clientKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ size_mb: sizeMb }),
    });
    const answer = (await response.json().catch(() => undefined)) as
      | { errors?: { code: string }[] }
      | undefined;
    if (response.status !== 202) {
      times.failures.push(`grow: ${response.status} ${answer?.errors?.[0]?.code ?? ''}`.trim());
      continue;
    }
    const outcome = await grown(input.pollDb, instance.id, sizeMb);
    if (outcome === 'ok') times.growMs.push(performance.now() - t0);
    else times.failures.push(`grow: ${outcome}`);
  }
  return times;
}
