import { answered } from '../clients/answered.js';
import type { AgentSettings, AgentTask, ReportAck } from '../domain/agent-protocol.js';
import { AgentTaskFailure, AgentTaskProgressMessage, isAgentTaskType } from '../domain/agent-tasks.js';
import { storableText } from '../domain/input-bounds.js';
import type { TaskProgressDetails } from '../domain/migrations/live-progress.js';
import type { Logger } from '../platform/logger.js';
import { DriverFailure, type HypervisorDriver } from './drivers/driver.js';
import { CredentialRefused, type PanelClient } from './panel-client.js';

// Messages come from the hypervisor and may hold anything; made storable here, so that the panel
// never refuses a report for its text and the outcome of the task is not lost with it.
const progressMessage = (message: string) =>
  storableText(message, { max: AgentTaskProgressMessage.maxLength!, multiline: true });
const failureMessage = (message: string) =>
  storableText(message, { max: AgentTaskFailure.shape.message.maxLength!, multiline: true }) || 'agent error';

/**
 * Runs one task. The lease is the go-ahead: the driver starts at once, while the `started` report
 * goes out beside it, and the final report (`completed` or `failed`) goes out the moment the driver
 * is done, without waiting for the answers to the earlier ones: a task then costs the panel one
 * report's round trip, not two in a row. The panel takes the reports of a task one at a time (it
 * locks the task), so a late `started` is recorded and changes nothing.
 *
 * While the task runs, a progress report goes out at least every `progress_interval_ms` (the
 * panel's proof of life for the step), one at a time, after `started`; while the panel is away at
 * most one waits, carrying the latest progress. Sequences increase from the panel's
 * `next_sequence` in the order the reports are made. A `stop` answered before the final report
 * aborts the driver, and no final report is sent.
 */
export async function runTask(
  offered: AgentTask['attributes'],
  driver: HypervisorDriver,
  panel: PanelClient,
  settings: AgentSettings,
  logger: Logger,
  stop: AbortSignal,
  fatal: (error: Error) => void,
): Promise<void> {
  const log = logger.child({
    task_id: offered.task_id,
    type: offered.type,
    correlation_id: offered.correlation_id,
  });
  const abort = new AbortController();
  const onStop = () => abort.abort();
  stop.addEventListener('abort', onStop, { once: true });
  let sequence = offered.next_sequence;
  let latest: { percent?: number; message?: string; details?: TaskProgressDetails } = {};
  let finishing = false;
  let progressWaiting = false;

  // Each report is retried by the panel client until the panel takes it.
  const send = async (
    kind: 'started' | 'progress' | 'completed' | 'failed',
    body: Record<string, unknown>,
  ) => {
    const payload = { ...body, sequence: sequence++ };
    return answered(
      await panel.api.POST(`/tasks/{task}/${kind}`, {
        params: { path: { task: offered.task_id } },
        body: payload,
      }),
    );
  };
  const refused = (kind: string) => (error: unknown) => {
    if (error instanceof CredentialRefused) {
      abort.abort();
      fatal(error);
    } else if (!stop.aborted) {
      log.warn('report refused by the panel', { kind, error });
    }
  };
  // Before the final report, `stop` means abandon: the task was cancelled, superseded or ended.
  const heed = (ack: ReportAck) => {
    if (ack.attributes.directive === 'stop' && !finishing && !abort.signal.aborted) {
      log.info('panel says stop', { state: ack.attributes.state });
      abort.abort();
    }
  };

  log.info('task started');
  const started = send('started', {}).then(heed, refused('started'));
  let progressChain = started;
  const progress = () => {
    if (progressWaiting || finishing) return;
    progressWaiting = true;
    progressChain = progressChain
      .then(async () => {
        progressWaiting = false;
        if (finishing || abort.signal.aborted) return;
        heed(await send('progress', latest));
      })
      .catch(refused('progress'));
  };

  const keepAlive = setInterval(progress, settings.progress_interval_ms);
  let final: { kind: 'completed' | 'failed'; body: Record<string, unknown> } | undefined;
  try {
    if (!isAgentTaskType(offered.type)) {
      throw new DriverFailure('UNKNOWN_TASK_TYPE', `this agent cannot run ${offered.type}`, false);
    }
    const result = await driver.execute(offered.type, offered.params, {
      signal: abort.signal,
      redeemTransfer: async (token) =>
        answered(await panel.api.POST('/transfers/redeem', { body: { token } })).attributes,
      progress: (percent, message, details) => {
        latest = {
          percent,
          ...(message ? { message: progressMessage(message) } : {}),
          ...(details ? { details } : {}),
        };
        progress();
      },
    });
    final = { kind: 'completed', body: { result } };
  } catch (error) {
    if (!abort.signal.aborted) {
      const failure =
        error instanceof DriverFailure
          ? { code: error.code, message: failureMessage(error.message), retryable: error.retryable }
          : { code: 'AGENT_ERROR', message: failureMessage((error as Error).message ?? ''), retryable: true };
      log.warn('task failed', failure);
      final = { kind: 'failed', body: { error: failure } };
    }
  } finally {
    clearInterval(keepAlive);
  }

  try {
    if (final && !abort.signal.aborted) {
      finishing = true;
      await send(final.kind, final.body).catch(refused(final.kind));
      if (final.kind === 'completed') log.info('task completed');
    } else {
      log.info('task stopped');
    }
  } finally {
    // The earlier reports still in flight are seen through, so the task's reports end with it.
    await Promise.all([started, progressChain]);
    stop.removeEventListener('abort', onStop);
  }
}
