import { randomBytes } from 'node:crypto';
import { endConsoleSessions } from '../../db/repositories/instances/console-endings.js';
import { findInstance } from '../../db/repositories/instances/instances.js';
import type { ConsoleKind } from '../../domain/console/sessions.js';
import { ApiError } from '../../domain/errors.js';
import { consoleStreamWorkflowId } from '../../domain/workflow-ids.js';
import { secretBox } from '../../platform/secrets.js';
import type { ServiceDeps } from '../context.js';
import { startWorkflow, stepTiming } from '../workflow-starts.js';

/**
 * Has the instance's hypervisor open a stream of its console to the gateway (`openConsoleStream`):
 * the agent connects out to `relayUrl` and presents the stream token returned here, which the
 * gateway matches to the session; the token travels sealed, opened only when the agent takes its
 * task. A stream that cannot be asked for ends the session `disconnected` (503).
 */
export async function openConsoleStream(
  deps: ServiceDeps,
  session: { id: string; instance_id: string; kind: ConsoleKind },
  relayUrl: string,
  correlationId: string | null,
): Promise<string> {
  const streamToken = `css_${randomBytes(32).toString('base64url')}`;
  const instance = await findInstance(deps.db, session.instance_id);
  try {
    if (!instance?.hypervisor_id) throw new Error('the instance is on no hypervisor');
    await startWorkflow(deps, {
      type: 'openConsoleStream',
      workflowId: consoleStreamWorkflowId(session.id),
      input: {
        hypervisorId: instance.hypervisor_id,
        open: {
          instance_id: session.instance_id,
          session_id: session.id,
          kind: session.kind,
          relay_url: relayUrl,
          stream_token: secretBox(deps.config.SECRETS_KEY).seal(streamToken),
        },
        correlationId,
        timing: stepTiming(deps.config),
      },
      searchAttributes: { instance: session.instance_id, hypervisor: instance.hypervisor_id },
      correlationId,
    });
  } catch (error) {
    await endConsoleSessions(deps.db, 'disconnected', (eb) => eb('id', '=', session.id));
    throw new ApiError('SVC-SYS-503', { cause: error });
  }
  return streamToken;
}
