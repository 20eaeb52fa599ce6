import type { ProviderOutcome, ProviderRunKind } from '../domain/providers.js';
import { step } from './lib/operation.js';
import { bookkeeping, providerStep } from './lib/steps.js';

export interface CheckProviderInput {
  readonly runId: string;
  readonly kind: ProviderRunKind;
}

/**
 * Runbook: call the provider with its credential (a rotation's candidate for a rotation), then
 * settle the run with the outcome; a rotation the provider accepted makes the candidate the
 * credential in that same step. The history holds the run's id and the outcome, no credential.
 */
export async function checkProvider(input: CheckProviderInput): Promise<ProviderOutcome> {
  step(input.kind === 'sync' ? 'Reading the provider’s inventory' : 'Calling the provider');
  const outcome = await providerStep().callProviderOfRun(input.runId);
  step('Recording the outcome');
  await bookkeeping().settleProviderRun({ runId: input.runId, outcome });
  return outcome;
}
