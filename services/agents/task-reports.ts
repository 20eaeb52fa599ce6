import type { ReportAck } from '../../domain/agent-protocol.js';
import type { ApiMetrics } from '../../platform/metrics.js';
import type { ServiceDeps } from '../context.js';
import type { AgentActor } from './actor.js';
import { finishedHere, heartbeatLater } from './task-heartbeat-delay.js';
import { type Bridge, deliver } from './task-report-delivery.js';
import type { Report } from './task-report-effects.js';
import { record } from './task-report-record.js';

// The report's shape is part of this entry's signature, so its callers name it from here.
export type { Report };

/**
 * Takes one agent report (SPEC.md §6) in two steps, so no database transaction is ever open while
 * Temporal is called:
 *
 * 1. In a short transaction the report is recorded with its answer and the task's new state
 *    (a completion is recorded as completed right here, whatever Temporal says later), and what it
 *    tells of a live move on the move's record (task-report-figures.ts).
 * 2. After the commit, the report is handed to Temporal (complete or fail of the waiting activity
 *    attempt) within TEMPORAL_RPC_TIMEOUT_MS, and marked delivered. A `started` or `progress`
 *    report is a heartbeat of the attempt: its agent is answered first, and Temporal told after.
 *
 * If Temporal cannot be reached a completion or failure gets 503 and the agent retries the same
 * (task, sequence); the repeat finds the report recorded but undelivered and delivers it then. A
 * delivered repeat gets the stored answer with no second effect. A repeated sequence with another
 * kind is refused.
 */
export async function acceptReport(
  deps: Pick<ServiceDeps, 'db' | 'temporal' | 'config' | 'logger'> & {
    readonly metrics?: Pick<ApiMetrics, 'migrationDowntime'>;
  },
  agent: AgentActor,
  request: { readonly taskId: string; readonly report: Report },
): Promise<ReportAck> {
  const { taskId, report } = request;
  const { hypervisorId } = agent;
  const bridge: Bridge = {
    db: deps.db,
    temporal: deps.temporal,
    leaseMs: deps.config.AGENT_TASK_LEASE_MS,
    temporalTimeoutMs: deps.config.TEMPORAL_RPC_TIMEOUT_MS,
  };
  const recorded = await bridge.db
    .transaction()
    .execute((trx) => record(trx, bridge.leaseMs, hypervisorId, taskId, report));
  const { delivery, liveEnd } = recorded;
  // Counted once it is committed: a repeat of the report records nothing and counts nothing.
  if (liveEnd) deps.metrics?.migrationDowntime.observe(liveEnd.downtimeMs / 1000);
  if (!delivery) return recorded.answer;
  if (delivery.kind === 'heartbeat') {
    // A heartbeat only keeps the step alive, so the agent is answered from the record and goes on
    // while Temporal is told (a round trip of the server saved on every task). Should Temporal
    // say the step was cancelled or is gone, the task is finished here and the agent's next
    // report gets `stop`; should Temporal be away, the report stays undelivered, and the agent's
    // next report (at least every progress interval) keeps the step alive instead.
    heartbeatLater(taskId, () =>
      deliver(bridge, recorded, report.sequence, delivery).catch((error: unknown) =>
        deps.logger.warn('heartbeat report not delivered to Temporal', { task_id: taskId, error }),
      ),
    );
    return recorded.answer;
  }
  const answer = await deliver(bridge, recorded, report.sequence, delivery);
  finishedHere(taskId);
  return answer;
}
