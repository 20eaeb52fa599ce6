import { proxyActivities } from '@temporalio/workflow';

const { answer } = proxyActivities<{ answer(): Promise<number> }>({ startToCloseTimeout: '1 minute' });

/**
 * One activity that answers at once, timed on the workflow's clock from its dispatch to seeing
 * the answer: what a workflow step costs in Temporal alone, with no agent, API or database.
 */
export async function temporalFloor(): Promise<number> {
  const dispatched = Date.now();
  await answer();
  return Date.now() - dispatched;
}
