/**
 * Provisioning latency: instances created one after another through `POST /api/client/cloud`,
 * each counted from sending the request to seeing the instance settled (status `running` and no
 * running operation) by polling its row on a connection of its own, as the power actions are.
 * The creates take a plan, an image and an IPv4 pool of the bench's own; the hypervisor must be
 * sized for them (`hypervisorSizeFor`). At the end the instances are deleted through the API, so
 * their capacity and addresses are released as a customer's would be.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import { upsertImage, upsertPlan } from '../db/repositories/catalogue/catalog.js';
import { insertIpPool } from '../db/repositories/network/ip-pools.js';
import { median, settledStatus, wallClock } from './power-actions.js';

export const CREATE_SETTLE_LIMIT_MS = 10_000;
/** After this many failed creates in a row the run stops: something is broken, not slow. */
const FAILURES_IN_A_ROW_LIMIT = 5;
const DELETE_LIMIT_MS = 60_000;

/** The smallest plan the image takes: the creates must fit on one hypervisor. */
const PLAN = {
  code: 'bench-provision',
  name: 'Bench provisioning',
  cpu_cores: 1,
  memory_mb: 512,
  disk_mb: 2048,
};
const IMAGE = { code: 'bench-debian-12', name: 'Debian 12', os_family: 'debian', min_disk_mb: 2048 };
/** Of the benchmarking range (RFC 2544, 198.18.0.0/15): never a real address. */
const POOL = { cidr: '198.18.0.0/22', gateway: '198.18.0.1', hostAddresses: 1024 - 2 - 1 };

/** A hypervisor's size for `creates` of the bench's plan beside what the other parts place (`base`). */
export function hypervisorSizeFor(
  creates: number,
  base: { cpuCores: number; memoryMb: number; diskMb: number },
): { cpuCores: number; memoryMb: number; diskMb: number } {
  return {
    cpuCores: base.cpuCores + creates * PLAN.cpu_cores,
    memoryMb: base.memoryMb + creates * PLAN.memory_mb,
    diskMb: base.diskMb + creates * PLAN.disk_mb,
  };
}

export interface ProvisioningTarget {
  readonly apiUrl: string;
  readonly clientKey: string;
  readonly locationCode: string;
  /** A handle used by nothing else: the settle poll. */
  readonly pollDb: Database;
}

/** Seeds the plan, the image and the location's IPv4 pool, with room for `creates`. */
export async function seedProvisioning(db: Database, locationId: string, creates: number): Promise<void> {
  if (creates > POOL.hostAddresses)
    throw new Error(`${creates} creates do not fit in ${POOL.cidr} (${POOL.hostAddresses} addresses)`);
  await upsertPlan(db, PLAN);
  await upsertImage(db, IMAGE);
  await insertIpPool(db, {
    locationId,
    name: 'bench IPv4',
    family: 4,
    cidr: POOL.cidr,
    gateway: POOL.gateway,
  });
}

export interface Create {
  readonly requestId: string;
  /** Wall-clock ms (sub-ms precision) when the request was sent, to line up with database times. */
  readonly sentAt: number;
  readonly instanceId: string | undefined;
  readonly acceptedMs: number | undefined;
  readonly settledMs: number | undefined;
  readonly seenAt: number | undefined;
  /** Why the create counts as failed; undefined when it settled `running` in time. */
  readonly failure: string | undefined;
}

export interface CreatesResult {
  readonly creates: Create[];
  /** Set when the run stopped early and the remaining creates were not sent. */
  readonly abortedBecause: string | undefined;
}

async function createOne(target: ProvisioningTarget, hostname: string): Promise<Create> {
  const requestId = randomUUID();
  const sentAt = wallClock();
  const t0 = performance.now();
  const response = await fetch(`${target.apiUrl}/api/client/cloud`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${target.clientKey}`,
      'Content-Type': 'application/json',
      'X-Request-Id': requestId,
    },
    body: JSON.stringify({ hostname, plan: PLAN.code, image: IMAGE.code, location: target.locationCode }),
  });
  const acceptedMs = performance.now() - t0;
  const body = await response.text();
  const unsettled = { settledMs: undefined, seenAt: undefined };
  if (response.status !== 202) {
    const code = /"code":"([^"]+)"/.exec(body)?.[1] ?? '';
    return {
      requestId,
      sentAt,
      instanceId: undefined,
      acceptedMs: undefined,
      ...unsettled,
      failure: `${response.status} ${code}`.trim(),
    };
  }
  const instanceId = (JSON.parse(body) as { attributes: { uuid: string } }).attributes.uuid;
  const status = await settledStatus(target.pollDb, instanceId, t0 + CREATE_SETTLE_LIMIT_MS);
  const settledMs = performance.now() - t0;
  const seenAt = wallClock();
  if (status === undefined)
    return {
      requestId,
      sentAt,
      instanceId,
      acceptedMs,
      ...unsettled,
      failure: `not running in ${CREATE_SETTLE_LIMIT_MS / 1000} s`,
    };
  return {
    requestId,
    sentAt,
    instanceId,
    acceptedMs,
    settledMs,
    seenAt,
    failure: status === 'running' ? undefined : `settled ${status}`,
  };
}

/** `count` creates one after the other, each waiting for the previous instance to settle. */
export async function runCreates(
  target: ProvisioningTarget,
  count: number,
  hostnamePrefix: string,
): Promise<CreatesResult> {
  const creates: Create[] = [];
  for (let i = 0; i < count; i++) {
    const create = await createOne(target, `${hostnamePrefix}-${i}.example.test`);
    creates.push(create);
    const recent = creates.slice(-FAILURES_IN_A_ROW_LIMIT);
    if (recent.length === FAILURES_IN_A_ROW_LIMIT && recent.every((c) => c.failure !== undefined))
      return { creates, abortedBecause: `${FAILURES_IN_A_ROW_LIMIT} creates failed in a row` };
  }
  return { creates, abortedBecause: undefined };
}

export interface ProvisioningStages {
  readonly requestToBegun: number;
  readonly begunToQueued: number;
  readonly queuedToStarted: number;
  readonly startedToFinished: number;
  readonly finishedToSettling: number;
  readonly settlingToSeen: number;
}

/**
 * Where the time of settled creates went, from the database's timestamps, as for the power
 * actions: the provisioning operation's creation and end (each its transaction's `now()`: the
 * operation is begun at the start of the create's transaction, before placement and addresses),
 * and its `instance.create` task's queueing, pick-up and end. Matched by the request id, which
 * becomes the operation's correlation id. Medians; undefined when no create has all timestamps.
 */
export async function provisioningStages(
  db: Database,
  creates: readonly Create[],
): Promise<ProvisioningStages | undefined> {
  const settled = creates.filter((c) => c.seenAt !== undefined);
  if (settled.length === 0) return undefined;
  const rows = await db
    .selectFrom('instance_operations as o')
    .innerJoin('agent_tasks as t', 't.workflow_id', 'o.workflow_id')
    .select([
      'o.correlation_id',
      'o.created_at as begun_at',
      'o.finished_at as settled_at',
      't.created_at as queued_at',
      't.started_at',
      't.finished_at',
    ])
    .where('o.kind', '=', 'provision')
    .where(
      'o.correlation_id',
      'in',
      settled.map((c) => c.requestId),
    )
    .where('t.type', '=', 'instance.create')
    .execute();
  const byRequest = new Map(rows.map((r) => [r.correlation_id, r]));
  const stages: Record<keyof ProvisioningStages, number[]> = {
    requestToBegun: [],
    begunToQueued: [],
    queuedToStarted: [],
    startedToFinished: [],
    finishedToSettling: [],
    settlingToSeen: [],
  };
  for (const create of settled) {
    const row = byRequest.get(create.requestId);
    if (!row?.started_at || !row.finished_at || !row.settled_at) continue;
    stages.requestToBegun.push(row.begun_at.getTime() - create.sentAt);
    stages.begunToQueued.push(row.queued_at.getTime() - row.begun_at.getTime());
    stages.queuedToStarted.push(row.started_at.getTime() - row.queued_at.getTime());
    stages.startedToFinished.push(row.finished_at.getTime() - row.started_at.getTime());
    stages.finishedToSettling.push(row.settled_at.getTime() - row.finished_at.getTime());
    stages.settlingToSeen.push(create.seenAt! - row.settled_at.getTime());
  }
  if (stages.requestToBegun.length === 0) return undefined;
  return {
    requestToBegun: median(stages.requestToBegun),
    begunToQueued: median(stages.begunToQueued),
    queuedToStarted: median(stages.queuedToStarted),
    startedToFinished: median(stages.startedToFinished),
    finishedToSettling: median(stages.finishedToSettling),
    settlingToSeen: median(stages.settlingToSeen),
  };
}

/**
 * Deletes the created instances through the API and waits until every one is `deleted`, which
 * is when its capacity and addresses are released. What was left, and why, is in the answer.
 */
export async function deleteCreated(
  target: ProvisioningTarget,
  instanceIds: readonly string[],
): Promise<{ deleted: number; left: string[] }> {
  const left: string[] = [];
  const accepted: string[] = [];
  for (const instanceId of instanceIds) {
    const response = await fetch(`${target.apiUrl}/api/client/cloud/${instanceId}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${target.clientKey}` },
    });
    const body = await response.text();
    if (response.status === 202) accepted.push(instanceId);
    else left.push(`${instanceId}: ${response.status} ${/"code":"([^"]+)"/.exec(body)?.[1] ?? ''}`.trim());
  }
  const deadline = performance.now() + DELETE_LIMIT_MS;
  let remaining = accepted;
  while (remaining.length > 0 && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    const rows = await target.pollDb
      .selectFrom('instances')
      .select(['id', 'status'])
      .where('id', 'in', remaining)
      .where('status', '<>', 'deleted')
      .execute();
    remaining = rows.map((r) => r.id);
  }
  for (const instanceId of remaining) left.push(`${instanceId}: not deleted in ${DELETE_LIMIT_MS / 1000} s`);
  return { deleted: accepted.length - remaining.length, left };
}
