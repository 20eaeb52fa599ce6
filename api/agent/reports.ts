import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { REPORT_BODIES, ReportAckBody } from '../../domain/agent-protocol.js';
import type { AppEnv } from '../../http/context.js';
import { acceptReport, type Report } from '../../services/agents/task-reports.js';
import {
  commonErrors,
  conflictResponse,
  ErrorEnvelope,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../wire/schemas.js';
import { component } from '../../wire/zod.js';
import { agentActor } from '../auth/principals.js';

const DESCRIPTIONS: Record<keyof typeof REPORT_BODIES, string> = {
  started:
    'The agent began the task. Becomes a heartbeat of the waiting activity, sent to Temporal after the answer: ' +
    'a cancellation Temporal reports then is the `stop` of the next report.',
  progress:
    'Progress, and the keep-alive of a long task: send at least every `settings.progress_interval_ms`, or the ' +
    'workflow takes the agent for dead. A report older than the newest one is recorded and ignored. A heartbeat, ' +
    'as `started` is.',
  completed: "The task's result, validated against the task type's result schema; completes the activity.",
  failed:
    'The task failed. `retryable: false` tells the workflow that trying again cannot help; otherwise its retry ' +
    'policy queues a new attempt as a new task.',
};

const ReportAck = component(ReportAckBody, 'AgentTaskAck');

export function register(app: OpenAPIHono<AppEnv>): void {
  for (const kind of Object.keys(REPORT_BODIES) as (keyof typeof REPORT_BODIES)[]) {
    const route = createRoute({
      method: 'post',
      path: `/tasks/{task}/${kind}`,
      tags: ['Agent'],
      summary: `Report: ${kind}`,
      description: `${DESCRIPTIONS[kind]} Idempotent on (task, sequence): a repeat gets the first answer again.`,
      request: {
        params: uuidParam('task'),
        body: jsonBody(component(REPORT_BODIES[kind], `Report_${kind}`)),
      },
      responses: {
        200: jsonContent(ReportAck, 'Taken; `directive` says whether to go on.'),
        ...commonErrors,
        ...notFoundResponse,
        ...conflictResponse('The sequence was already used by a report of another kind (SVC-REPORT-409).'),
        ...(kind === 'completed' || kind === 'failed'
          ? {
              503: {
                description:
                  'Temporal could not be reached (SVC-SYS-503). The report is recorded: send the same report again.',
                content: { 'application/json': { schema: ErrorEnvelope } },
              },
            }
          : {}),
      },
    });
    app.openapi(route, async (c) => {
      const answer = await acceptReport(c.get('deps'), agentActor(c), {
        taskId: c.req.valid('param').task,
        report: { kind, ...c.req.valid('json') } as Report,
      });
      return c.json(answer, 200);
    });
  }
}
