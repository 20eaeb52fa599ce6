/**
 * An evacuation's wall time against its ideal: a node of instances drained through the service the
 * admin API and the CLI call, by agents whose simulated disk transfers take a set time per GB. The
 * ideal is the total transfer time divided by the parallelism allowed; what the wall time adds is
 * the control plane's: each move's own steps besides its transfer, and the time a freed slot waits
 * for the next move.
 */

import type { Database } from '../db/database.js';
import { findEvacuation } from '../db/repositories/moves/evacuations.js';
import type { Actor } from '../domain/actors.js';
import { ACTIVE_EVACUATION_STATES } from '../domain/evacuations/states.js';
import type { ServiceDeps } from '../services/context.js';
import { startEvacuation } from '../services/evacuations/start.js';

export interface EvacuationFigures {
  readonly wallMs: number;
  readonly state: string;
  readonly moved: number;
  /** Each move, REQUESTED to COMPLETED. */
  readonly moveMs: number[];
  /** Each refilled slot: a move's COMPLETED to the next move's REQUESTED. */
  readonly refillMs: number[];
  /** The time each migration spent in each state, by state. */
  readonly stateMs: Map<string, number[]>;
}

export async function runEvacuation(input: {
  deps: ServiceDeps;
  pollDb: Database;
  admin: Actor;
  hypervisorId: string;
  maxParallel: number;
  maxParallelPerTarget: number;
  limitMs: number;
}): Promise<EvacuationFigures> {
  const started = performance.now();
  const { evacuationId } = await startEvacuation(input.deps, input.admin, {
    hypervisorId: input.hypervisorId,
    policy: {
      mode: 'AUTO',
      maxParallel: input.maxParallel,
      maxParallelPerTarget: input.maxParallelPerTarget,
    },
    correlationId: 'bench-evacuation',
  });
  let evacuation = await findEvacuation(input.pollDb, evacuationId);
  while (evacuation && ACTIVE_EVACUATION_STATES.includes(evacuation.state)) {
    if (performance.now() - started > input.limitMs) break;
    await new Promise((r) => setTimeout(r, 20));
    evacuation = await findEvacuation(input.pollDb, evacuationId);
  }
  const wallMs = performance.now() - started;
  const events = await input.pollDb
    .selectFrom('evacuation_items as i')
    .innerJoin('migration_events as e', 'e.migration_id', 'i.migration_id')
    .select(['i.migration_id', 'e.state', 'e.at'])
    .where('i.evacuation_id', '=', evacuationId)
    .orderBy('e.id')
    .execute();
  // Each state's time: from its event to the next one of the same migration.
  const stateMs = new Map<string, number[]>();
  const last = new Map<string, { state: string; at: number }>();
  for (const e of events) {
    const before = last.get(e.migration_id!);
    if (before) stateMs.set(before.state, [...(stateMs.get(before.state) ?? []), e.at.getTime() - before.at]);
    last.set(e.migration_id!, { state: e.state, at: e.at.getTime() });
  }
  const spans = new Map<string, { from?: number; to?: number }>();
  for (const e of events.filter((x) => x.state === 'REQUESTED' || x.state === 'COMPLETED')) {
    const span = spans.get(e.migration_id!) ?? {};
    if (e.state === 'REQUESTED') span.from = e.at.getTime();
    else span.to = e.at.getTime();
    spans.set(e.migration_id!, span);
  }
  const done = [...spans.values()].filter((s) => s.from !== undefined && s.to !== undefined) as {
    from: number;
    to: number;
  }[];
  const requests = done.map((s) => s.from).sort((a, b) => a - b);
  const completions = done.map((s) => s.to).sort((a, b) => a - b);
  const refillMs = requests.slice(input.maxParallel).map((at, i) => at - completions[i]!);
  return {
    wallMs,
    state: evacuation?.state ?? 'unknown',
    moved: done.length,
    moveMs: done.map((s) => s.to - s.from),
    refillMs,
    stateMs,
  };
}
