/**
 * Plan changes through the Application API (`POST /api/application/cloudsvc/instances/{instance}/resize`
 * with explicit `cpu_cores` and `memory_mb`), each counted from sending the request to seeing it
 * applied: the instance with no running operation and the size asked, and its `resize` operation
 * succeeded in the mode expected (hot or cold). "Applied" is seen by polling the instance row every
 * 2 ms on a connection of the bench's own. On the zero-latency driver, rounds of a hot grow (1 → 2
 * vCPUs, 512 → 768 MB, within the room the guest was booted with) and a cold shrink back.
 */

import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { DB } from '../db/schema.js';
import type { ResizeMode } from '../domain/instances/hot-resize.js';
import { runningInstance } from './bench-instance.js';
import type { ApiRounds } from './parts/api-rounds.js';

const POLL_INTERVAL_MS = 2;

export interface GuestChange {
  readonly cpu_cores: number;
  readonly memory_mb: number;
}

/** Where a plan change goes: the API, an administrator's application key, the instance and a poll connection. */
export interface ResizeTarget {
  readonly apiUrl: string;
  readonly adminKey: string;
  readonly instanceId: string;
  readonly pollDb: Database;
}

const instanceSize = precompiled((db: Kysely<DB>, instanceId: string) =>
  db.selectFrom('instances').select(['operation_id', 'cpu_cores', 'memory_mb']).where('id', '=', instanceId),
);
const operationEnd = precompiled((db: Kysely<DB>, operationId: string) =>
  db.selectFrom('instance_operations').select(['state', 'outcome']).where('id', '=', operationId),
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One plan change, request to applied: the ms it took, or why it failed (an answer other than 202
 * in the mode expected, an operation not succeeded, another size or mode, or no settling in time).
 */
export async function timedResize(
  target: ResizeTarget,
  change: GuestChange,
  expected: ResizeMode,
  limitMs: number,
): Promise<{ ms: number } | { failure: string }> {
  const t0 = performance.now();
  const response = await fetch(
    `${target.apiUrl}/api/application/cloudsvc/instances/${target.instanceId}/resize`,
    {
      method: 'POST',
      headers: { Authorization: `Bearer ${target.adminKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(change),
    },
  );
  const answer = (await response.json().catch(() => undefined)) as
    | { attributes?: { mode?: string; operation_uuid?: string | null }; errors?: { code: string }[] }
    | undefined;
  const operationId = answer?.attributes?.operation_uuid;
  if (response.status !== 202 || !operationId)
    return { failure: `${expected}: ${response.status} ${answer?.errors?.[0]?.code ?? ''}`.trim() };
  if (answer.attributes?.mode !== expected)
    return { failure: `${expected}: judged ${answer.attributes?.mode}` };
  const deadline = t0 + limitMs;
  for (;;) {
    const [row] = await instanceSize(target.pollDb, target.instanceId);
    if (row && row.operation_id === null) break;
    if (performance.now() >= deadline) return { failure: `${expected}: not settled in ${limitMs / 1000} s` };
    await sleep(POLL_INTERVAL_MS);
  }
  const ms = performance.now() - t0;
  const [[row], [operation]] = await Promise.all([
    instanceSize(target.pollDb, target.instanceId),
    operationEnd(target.pollDb, operationId),
  ]);
  if (operation?.state !== 'succeeded') return { failure: `${expected}: operation ${operation?.state}` };
  const applied = (operation.outcome as { applied?: string } | null)?.applied;
  if (applied !== expected) return { failure: `${expected}: applied ${applied}` };
  if (row?.cpu_cores !== change.cpu_cores || row.memory_mb !== change.memory_mb)
    return { failure: `${expected}: the instance has ${row?.cpu_cores} vCPUs and ${row?.memory_mb} MB` };
  return { ms };
}

export interface SimulatedResizeTimes {
  readonly hotMs: number[];
  readonly coldMs: number[];
  readonly failures: string[];
}

const SMALL = { cpu_cores: 1, memory_mb: 512 } as const;
const GROWN = { cpu_cores: 2, memory_mb: 768 } as const;
const SETTLE_LIMIT_MS = 10_000;

/**
 * `rounds` hot grows and cold shrinks back on one instance of the zero-latency driver, after
 * `warmUp` uncounted rounds; the instance is booted with the stack's default room to grow.
 */
export async function runSimulatedResizes(
  input: ApiRounds & { adminKey: string; warmUp: number },
): Promise<SimulatedResizeTimes> {
  const times: SimulatedResizeTimes = { hotMs: [], coldMs: [], failures: [] };
  const instance = await runningInstance(input.deps, {
    name: 'bench-resize',
    userId: input.userId,
    locationId: input.locationId,
    hypervisorId: input.hypervisorId,
    size: { ...SMALL, disk_mb: 2048 },
  });
  const target = {
    apiUrl: input.apiUrl,
    adminKey: input.adminKey,
    instanceId: instance.id,
    pollDb: input.pollDb,
  };
  for (let round = 0; round < input.warmUp + input.rounds; round++) {
    const counted = round >= input.warmUp;
    const hot = await timedResize(target, GROWN, 'hot', SETTLE_LIMIT_MS);
    if ('failure' in hot) {
      times.failures.push(hot.failure);
      break;
    }
    if (counted) times.hotMs.push(hot.ms);
    const cold = await timedResize(target, SMALL, 'cold', SETTLE_LIMIT_MS);
    if ('failure' in cold) {
      times.failures.push(cold.failure);
      break;
    }
    if (counted) times.coldMs.push(cold.ms);
  }
  return times;
}
