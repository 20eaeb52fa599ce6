/**
 * Repeated power actions on one instance: each action is a `POST …/power` through the API, and
 * it counts from sending the request to seeing the instance settled (its status `stopped` or
 * `running` and no running operation). The bench sees "settled" by polling the instance row on a
 * connection of its own, so the poll neither waits for nor takes a connection of the worker's
 * pool. The next action is the opposite of the status the last one settled in, so an action
 * that fails does not make every later one a refused request.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { DB } from '../db/schema.js';
import type { InstanceStatus } from '../domain/instances/statuses.js';

export const POLL_INTERVAL_MS = 2;
export const SETTLE_LIMIT_MS = 10_000;
/** After a failure, how long the next action waits for the instance before the run gives up. */
const RECOVERY_LIMIT_MS = 60_000;

export interface PowerActionsTarget {
  readonly apiUrl: string;
  readonly clientKey: string;
  readonly instanceId: string;
  /** A handle used by nothing else: the settle poll. */
  readonly pollDb: Database;
}

export interface PowerAction {
  readonly action: 'stop' | 'start';
  readonly requestId: string;
  /** Wall-clock ms (sub-ms precision) when the request was sent, to line up with database times. */
  readonly sentAt: number;
  readonly acceptedMs: number | undefined;
  readonly settledMs: number | undefined;
  readonly seenAt: number | undefined;
  /** Why the action counts as failed; undefined when it settled in time in the expected status. */
  readonly failure: string | undefined;
}

export interface PowerActionsResult {
  readonly actions: PowerAction[];
  /** Set when the instance stopped settling at all and the remaining actions were not sent. */
  readonly abortedBecause: string | undefined;
}

const instanceState = precompiled((db: Kysely<DB>, instanceId: string) =>
  db.selectFrom('instances').select(['status', 'operation_id']).where('id', '=', instanceId),
);

export const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export const wallClock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The status the instance settled in, or undefined if it still has a running operation at `deadline`. */
export async function settledStatus(
  db: Database,
  instanceId: string,
  deadline: number,
): Promise<InstanceStatus | undefined> {
  for (;;) {
    const [row] = await instanceState(db, instanceId);
    if (!row) throw new Error(`instance ${instanceId} is gone`);
    if (row.operation_id === null) return row.status;
    if (performance.now() >= deadline) return undefined;
    await sleep(POLL_INTERVAL_MS);
  }
}

async function powerAction(target: PowerActionsTarget, action: 'stop' | 'start'): Promise<PowerAction> {
  const requestId = randomUUID();
  const expected: InstanceStatus = action === 'stop' ? 'stopped' : 'running';
  const sentAt = wallClock();
  const t0 = performance.now();
  const response = await fetch(`${target.apiUrl}/api/client/cloud/${target.instanceId}/power`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${target.clientKey}`,
      'Content-Type': 'application/json',
      'X-Request-Id': requestId,
    },
    body: JSON.stringify({ action }),
  });
  const acceptedMs = performance.now() - t0;
  const body = await response.text();
  if (response.status !== 202) {
    const code = /"code":"([^"]+)"/.exec(body)?.[1] ?? '';
    return {
      action,
      requestId,
      sentAt,
      acceptedMs: undefined,
      settledMs: undefined,
      seenAt: undefined,
      failure: `${action}: ${response.status} ${code}`.trim(),
    };
  }
  const status = await settledStatus(target.pollDb, target.instanceId, t0 + SETTLE_LIMIT_MS);
  const settledMs = performance.now() - t0;
  const seenAt = wallClock();
  const failure =
    status === undefined
      ? `${action}: not settled in ${SETTLE_LIMIT_MS / 1000} s`
      : status !== expected
        ? `${action}: settled ${status}`
        : undefined;
  return {
    action,
    requestId,
    sentAt,
    acceptedMs,
    settledMs: status === undefined ? undefined : settledMs,
    seenAt,
    failure,
  };
}

/** `count` power actions one after the other, each waiting for the previous one to settle. */
export async function runPowerActions(
  target: PowerActionsTarget,
  count: number,
): Promise<PowerActionsResult> {
  const actions: PowerAction[] = [];
  for (let i = 0; i < count; i++) {
    const status = await settledStatus(
      target.pollDb,
      target.instanceId,
      performance.now() + RECOVERY_LIMIT_MS,
    );
    if (status !== 'running' && status !== 'stopped')
      return {
        actions,
        abortedBecause: `the instance is ${status ?? 'still busy'} after ${RECOVERY_LIMIT_MS / 1000} s`,
      };
    actions.push(await powerAction(target, status === 'running' ? 'stop' : 'start'));
  }
  return { actions, abortedBecause: undefined };
}

export interface PowerActionStages {
  readonly requestToBegun: number;
  readonly begunToQueued: number;
  readonly queuedToStarted: number;
  readonly startedToFinished: number;
  readonly finishedToSettling: number;
  readonly settlingToSeen: number;
}

/**
 * Where the time of settled actions went, from the database's timestamps: the operation's
 * creation (inside the request) and end, and its agent task's queueing, pick-up and end. Both
 * operation times are `now()`, the start of their transactions, so the last stage holds the
 * settling transaction as well as the poll's lag. Actions are matched to their operation and task
 * by the request id, which becomes their correlation id. Medians of each stage; undefined when no
 * action has all its timestamps.
 */
export async function powerActionStages(
  db: Database,
  instanceId: string,
  actions: readonly PowerAction[],
): Promise<PowerActionStages | undefined> {
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
    .where('o.instance_id', '=', instanceId)
    .where('t.type', '=', 'instance.power')
    .execute();
  const byRequest = new Map(rows.map((r) => [r.correlation_id, r]));
  const stages: Record<keyof PowerActionStages, number[]> = {
    requestToBegun: [],
    begunToQueued: [],
    queuedToStarted: [],
    startedToFinished: [],
    finishedToSettling: [],
    settlingToSeen: [],
  };
  for (const action of actions) {
    const row = byRequest.get(action.requestId);
    if (!row?.started_at || !row.finished_at || !row.settled_at || action.seenAt === undefined) continue;
    stages.requestToBegun.push(row.begun_at.getTime() - action.sentAt);
    stages.begunToQueued.push(row.queued_at.getTime() - row.begun_at.getTime());
    stages.queuedToStarted.push(row.started_at.getTime() - row.queued_at.getTime());
    stages.startedToFinished.push(row.finished_at.getTime() - row.started_at.getTime());
    stages.finishedToSettling.push(row.settled_at.getTime() - row.finished_at.getTime());
    stages.settlingToSeen.push(action.seenAt - row.settled_at.getTime());
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
