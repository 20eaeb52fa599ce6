import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { ProviderRunRow } from '../../db/repositories/network/provider-run-lists.js';
import { abandonProviderRun, beginProviderRun } from '../../db/repositories/network/provider-runs.js';
import type { Asker } from '../../domain/actors.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ProviderRunKind } from '../../domain/providers.js';
import { providerRunWorkflowId } from '../../domain/workflow-ids.js';
import type { ServiceDeps } from '../context.js';
import { startWorkflow } from '../workflow-starts.js';
import { checkedCredential, sealedCredential } from './providers.js';

export type RunRequest =
  | { readonly kind: 'test' | 'sync' }
  | { readonly kind: 'rotate'; readonly credential: string };

/**
 * Begins a test, sync or rotation of a provider as a workflow and answers with its run at once.
 * A test or sync asked for while one runs joins it. A rotation carries a credential of its own, so
 * a second one while the first runs is refused (`SVC-OP-409`) rather than merged.
 *
 * The run is recorded and committed before Temporal is called; a start that fails marks the run
 * failed and answers 503, and a start whose answer was lost is joined by the next request.
 */
export async function startProviderRun(
  deps: ServiceDeps,
  actor: Asker,
  target: { readonly providerId: string; readonly correlationId: string | null },
  request: RunRequest,
): Promise<ProviderRunRow> {
  const { providerId } = target;
  const candidateSealed =
    request.kind === 'rotate'
      ? sealedCredential(deps, await checkedCredential(deps, providerId, request.credential))
      : null;
  const outcome = await beginProviderRun(deps.db, {
    providerId,
    kind: request.kind,
    candidateSealed,
    requestedBy: actor.userId,
  });
  if (!outcome) throw notFound();
  if (!outcome.begun && request.kind === 'rotate')
    throw new ApiError('SVC-OP-409', { detail: 'A rotation of this provider’s credential is under way.' });
  try {
    await startCheck(deps, { ...target, runId: outcome.run.id, kind: request.kind });
  } catch (error) {
    if (outcome.begun) await abandonProviderRun(deps.db, outcome.run.id);
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  return outcome.run;
}

async function startCheck(
  deps: ServiceDeps,
  run: { providerId: string; runId: string; kind: ProviderRunKind; correlationId: string | null },
) {
  const { providerId, runId, kind } = run;
  try {
    await startWorkflow(deps, {
      type: 'checkProvider',
      workflowId: providerRunWorkflowId(kind, providerId, runId),
      input: { runId, kind },
      searchAttributes: {},
      correlationId: run.correlationId,
    });
  } catch (error) {
    // The run finished between the read and this start: nothing to join, nothing lost.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
