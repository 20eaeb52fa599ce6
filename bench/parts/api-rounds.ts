import type { Database } from '../../db/database.js';
import type { ServiceDeps } from '../../services/context.js';
import { quantiles } from '../backups.js';
import type { BenchStack } from '../stack.js';

/** What a part that measures API requests on one instance of its own is given. */
export interface ApiRounds {
  readonly deps: ServiceDeps;
  /** A connection of the part's own, to poll for the change applied without queuing behind the API. */
  readonly pollDb: Database;
  readonly apiUrl: string;
  readonly clientKey: string;
  readonly userId: string;
  readonly locationId: string;
  readonly hypervisorId: string;
  readonly rounds: number;
}

/** Runs `measure` with the stack's API, agent and a poll connection named for the part, closed after. */
export async function withApiRounds<T>(
  stack: BenchStack,
  part: string,
  rounds: number,
  measure: (input: ApiRounds) => Promise<T>,
): Promise<T> {
  const workflows = await stack.workflows();
  const poll = stack.pollDatabase(part);
  try {
    return await measure({
      deps: workflows.deps(),
      pollDb: poll.db,
      apiUrl: stack.apiUrl,
      clientKey: stack.key,
      userId: stack.user.id,
      locationId: stack.location.id,
      hypervisorId: workflows.hypervisorId,
      rounds,
    });
  } finally {
    await poll.close();
  }
}

/** `p50 … ms (target <= …: met), p99 …` for a latency target of the parts. */
export function latencyVerdict(values: number[], targets: { p50: number; p99: number }): string {
  const { p50, p99 } = quantiles(values);
  const met = (value: number, target: number) => (value <= target ? 'met' : 'NOT met');
  return (
    `p50 ${p50.toFixed(1)} ms (target <= ${targets.p50}: ${met(p50, targets.p50)}), ` +
    `p99 ${p99.toFixed(1)} ms (target <= ${targets.p99}: ${met(p99, targets.p99)})`
  );
}

/** `failures N (target 0: met)`, and each kind of failure on a line of its own after the figures. */
export function failureVerdict(failures: readonly string[]): { line: string; details: string[] } {
  return {
    line: `failures ${failures.length} (target 0: ${failures.length === 0 ? 'met' : 'NOT met'})`,
    details: [...new Set(failures)].map((f) => `  failed: ${f}`),
  };
}
