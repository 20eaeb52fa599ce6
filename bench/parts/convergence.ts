import { benchConvergence } from '../convergence-moves.js';
import type { BenchStack } from '../stack.js';

/** 14. Busy real guests' live moves under each convergence policy, on hypervisors of their own. */
export async function convergencePart(stack: BenchStack): Promise<void> {
  const workflows = await stack.workflows();
  await benchConvergence({
    deps: workflows.deps({ MIGRATION_SOURCE_RETENTION_MS: 0 }),
    db: stack.db,
    apiUrl: stack.apiUrl,
    locationId: stack.location.id,
    userId: stack.user.id,
    launch: stack.launch,
  });
}
