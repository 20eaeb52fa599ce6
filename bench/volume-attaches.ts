/**
 * Volume attaches to one instance with a zero-latency driver, each through the Client API and
 * counted from sending the request to seeing the volume attached on the agent: the instance
 * settled and the volume `attached`. Between rounds the volume is detached again (not counted).
 * "Attached" is seen by polling the rows every 2 ms on a connection of the bench's own.
 */

import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { DB } from '../db/schema.js';
import { runningInstance } from './bench-instance.js';
import type { ApiRounds } from './parts/api-rounds.js';

const POLL_INTERVAL_MS = 2;
const SETTLE_LIMIT_MS = 10_000;

export interface VolumeAttachTimes {
  readonly attachMs: number[];
  readonly failures: string[];
}

const placeOf = precompiled((db: Kysely<DB>, volumeId: string, instanceId: string) =>
  db
    .selectFrom(['volumes as v', 'instances as i'])
    .select(['v.state', 'i.operation_id'])
    .where('v.id', '=', volumeId)
    .where('i.id', '=', instanceId),
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Until the volume is `want` and its instance has no operation; why not, otherwise. */
async function settled(
  db: Database,
  place: { volumeId: string; instanceId: string },
  want: 'attached' | 'available',
): Promise<string> {
  const deadline = performance.now() + SETTLE_LIMIT_MS;
  for (;;) {
    const [row] = await placeOf(db, place.volumeId, place.instanceId);
    if (row?.state === want && row.operation_id === null) return 'ok';
    if (row && row.state !== 'attaching' && row.state !== 'detaching' && row.state !== want)
      return `the volume is ${row.state}, not ${want}`;
    if (performance.now() >= deadline) return `not ${want} in ${SETTLE_LIMIT_MS / 1000} s`;
    await sleep(POLL_INTERVAL_MS);
  }
}

export async function runVolumeAttaches(input: ApiRounds): Promise<VolumeAttachTimes> {
  const times: VolumeAttachTimes = { attachMs: [], failures: [] };
  const instance = await runningInstance(input.deps, {
    name: 'bench-volumes',
    userId: input.userId,
    locationId: input.locationId,
    hypervisorId: input.hypervisorId,
    size: { cpu_cores: 1, memory_mb: 512, disk_mb: 2048 },
  });
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${input.apiUrl}/api/client/cloud${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${input.clientKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => undefined)) as
      | { attributes?: { uuid: string }; errors?: { code: string }[] }
      | undefined;
    return { status: response.status, answer };
  };
  const location = await input.deps.db
    .selectFrom('locations')
    .select('code')
    .where('id', '=', input.locationId)
    .executeTakeFirstOrThrow();
  const made = await call('/volumes', {
    name: `bench-${instance.id}`,
    location: location.code,
    size_mb: 1024,
  });
  const volumeId = made.answer?.attributes?.uuid;
  if (made.status !== 201 || !volumeId) {
    times.failures.push(`create: ${made.status} ${made.answer?.errors?.[0]?.code ?? ''}`.trim());
    return times;
  }
  for (let round = 1; round <= input.rounds; round++) {
    const t0 = performance.now();
    const attach = await call(`/volumes/${volumeId}/attach`, { instance: instance.id });
    if (attach.status !== 202) {
      times.failures.push(`attach: ${attach.status} ${attach.answer?.errors?.[0]?.code ?? ''}`.trim());
      continue;
    }
    const outcome = await settled(input.pollDb, { volumeId, instanceId: instance.id }, 'attached');
    if (outcome === 'ok') times.attachMs.push(performance.now() - t0);
    else times.failures.push(`attach: ${outcome}`);
    const detach = await call(`/volumes/${volumeId}/detach`, {});
    const off =
      detach.status === 202
        ? await settled(input.pollDb, { volumeId, instanceId: instance.id }, 'available')
        : `${detach.status}`;
    if (off !== 'ok') times.failures.push(`detach: ${off}`);
  }
  return times;
}
