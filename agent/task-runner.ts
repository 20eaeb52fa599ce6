import { AgentTaskFailure, AgentTaskProgressMessage, isAgentTaskType } from '../domain/agent-tasks.js';
import { storableText } from '../domain/input-bounds.js';
import type { Logger } from '../platform/logger.js';
import type { AgentSettings, OfferedTask, ReportAck, TransferRedemption } from './agent-api.js';
import { DriverFailure, type HypervisorDriver } from './drivers/driver.js';
import { CredentialRefused, type PanelClient } from './panel-client.js';

// Messages come from the hypervisor and may hold anything; made storable here, so that the panel
// never refuses a report for its text and the outcome of the task is not lost with it.
const progressMessage = (message: string) =>
  storableText(message, { max: AgentTaskProgressMessage.maxLength!, multiline: true });
const failureMessage = (message: string) =>
  storableText(message, { max: AgentTaskFailure.shape.message.maxLength!, multiline: true }) || 'agent error';

/**
 * Runs one task: reports `started`, executes it on the driver while sending a progress report at
 * least every `progress_interval_ms` (the panel's proof of life for the step), then reports
 * `completed` or `failed`. Sequences increase from the panel's `next_sequence`. A `stop`
 * directive aborts the driver and ends all reporting for the task.
 */
export async function runTask(
  offered: OfferedTask['attributes'],
  driver: HypervisorDriver,
  panel: PanelClient,
  settings: AgentSettings,
  logger: Logger,
  shutdown: AbortSignal,
  fatal: (error: Error) => void,
): Promise<void> {
  const log = logger.child({
    task_id: offered.task_id,
    type: offered.type,
    correlation_id: offered.correlation_id,
  });
  const abort = new AbortController();
  const onShutdown = () => abort.abort();
  shutdown.addEventListener('abort', onShutdown, { once: true });
  let sequence = offered.next_sequence;
  let latest: { percent?: number; message?: string } = {};
  let chain = Promise.resolve();

  let progressWaiting = false;

  // Reports go out one at a time, in sequence order, each retried until the panel takes it. While
  // the panel is away, at most one progress report waits, carrying the latest progress.
  const report = (
    kind: 'started' | 'progress' | 'completed' | 'failed',
    body: Record<string, unknown> = {},
  ) => {
    if (kind === 'progress') {
      if (progressWaiting) return chain;
      progressWaiting = true;
    }
    const sent = chain.then(async () => {
      if (kind === 'progress') progressWaiting = false;
      if (abort.signal.aborted && kind === 'progress') return;
      const payload = { ...(kind === 'progress' ? latest : body), sequence: sequence++ };
      const { body: ack } = await panel.call<ReportAck>('POST', `/tasks/${offered.task_id}/${kind}`, payload);
      // After completed/failed, `stop` is the panel's normal answer; before, it means abandon.
      const final = kind === 'completed' || kind === 'failed';
      if (ack.attributes.directive === 'stop' && !final && !abort.signal.aborted) {
        log.info('panel says stop', { state: ack.attributes.state });
        abort.abort();
      }
    });
    chain = sent.catch((error: unknown) => {
      if (error instanceof CredentialRefused) {
        abort.abort();
        fatal(error);
      } else if (!shutdown.aborted) {
        log.warn('report refused by the panel', { kind, error });
      }
    });
    return chain;
  };

  const keepAlive = setInterval(() => void report('progress'), settings.progress_interval_ms);
  try {
    await report('started');
    if (abort.signal.aborted) return;
    if (!isAgentTaskType(offered.type)) {
      throw new DriverFailure('UNKNOWN_TASK_TYPE', `this agent cannot run ${offered.type}`, false);
    }
    const result = await driver.execute(offered.type, offered.params, {
      signal: abort.signal,
      redeemTransfer: async (token) =>
        (await panel.call<TransferRedemption>('POST', '/transfers/redeem', { token })).body.attributes,
      progress: (percent, message) => {
        latest = { percent, ...(message ? { message: progressMessage(message) } : {}) };
        void report('progress');
      },
    });
    clearInterval(keepAlive);
    if (abort.signal.aborted) return;
    await report('completed', { result });
    log.info('task completed');
  } catch (error) {
    clearInterval(keepAlive);
    if (abort.signal.aborted) {
      log.info('task stopped');
      return;
    }
    const failure =
      error instanceof DriverFailure
        ? { code: error.code, message: failureMessage(error.message), retryable: error.retryable }
        : { code: 'AGENT_ERROR', message: failureMessage((error as Error).message ?? ''), retryable: true };
    log.warn('task failed', failure);
    await report('failed', { error: failure });
  } finally {
    clearInterval(keepAlive);
    shutdown.removeEventListener('abort', onShutdown);
    await chain;
  }
}
