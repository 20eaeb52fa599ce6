import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';

/** A bundle of altered-workflows.ts alone: small, so it builds in a moment. */
export async function bundleAlteredWorkflows(): Promise<{ code: string }> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL('./altered-workflows.ts', import.meta.url)),
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } as never,
  });
  return { code };
}
