import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { recordActivity } from '../../../db/repositories/activity-log.js';
import { findInstanceOfUser, transitionInstanceStatus } from '../../../db/repositories/instances.js';
import { hasActiveMigrationLease } from '../../../db/repositories/migration-leases.js';
import { ApiError, notFound } from '../../../domain/errors.js';
import { assertPowerActionAllowed, POWER_ACTIONS } from '../../../domain/instances.js';
import { powerInstanceWorkflowId } from '../../../domain/workflow-ids.js';
import type { PowerInstanceInput } from '../../../workflows/power-instance.js';
import type { AppEnv } from '../../context.js';
import {
  commonErrors,
  conflictResponse,
  jsonBody,
  jsonContent,
  notFoundResponse,
  uuidParam,
} from '../../schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../serializers/instance.js';
import { workflowStartError } from '../../temporal-errors.js';
import { z } from '../../zod.js';

const PowerRequest = z.object({ action: z.enum(POWER_ACTIONS) }).openapi('PowerRequest');

const route = createRoute({
  method: 'post',
  path: '/{cloudInstance}/power',
  tags: ['Instances'],
  summary: 'Power action: start, stop, restart or kill',
  description:
    'Accepted actions by status: `start` from stopped; `stop` and `restart` from running; `kill` from running ' +
    'or a transitional power status. The instance moves to a transitional status (starting, stopping, restarting) ' +
    'at once and to its final one when its hypervisor reports. One power action per instance at a time.',
  request: { params: uuidParam('cloudInstance'), body: jsonBody(PowerRequest) },
  responses: {
    202: jsonContent(InstanceEnvelope, 'Accepted; the instance in its transitional status.'),
    ...commonErrors,
    ...notFoundResponse,
    ...conflictResponse(
      'Not allowed in the current status (SVC-CONFLICT-409), another operation running (SVC-OP-409), or the instance is migrating (INSTANCE_MIGRATING).',
    ),
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { db, temporal, config } = c.get('deps');
    const { cloudInstance } = c.req.valid('param');
    const { action } = c.req.valid('json');
    const userId = c.get('principal').userId!;

    const instance = await findInstanceOfUser(db, userId, cloudInstance);
    if (!instance) throw notFound();
    if (await hasActiveMigrationLease(db, instance.id)) throw new ApiError('INSTANCE_MIGRATING');
    if (!instance.hypervisor_id)
      throw new ApiError('SVC-CONFLICT-409', { detail: 'The instance is not placed yet.' });
    const rule = assertPowerActionAllowed(instance.status, action);
    if (!(await transitionInstanceStatus(db, instance.id, [instance.status], rule.during))) {
      throw new ApiError('SVC-OP-409');
    }

    const input: PowerInstanceInput = {
      instanceId: instance.id,
      hypervisorId: instance.hypervisor_id,
      action,
      previousStatus: instance.status,
      correlationId: c.get('requestId'),
      timing: { heartbeatTimeoutMs: config.AGENT_TASK_HEARTBEAT_TIMEOUT_MS },
    };
    try {
      await temporal.workflow.start('powerInstance', {
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        workflowId: powerInstanceWorkflowId(instance.id),
        args: [input],
        memo: { correlation_id: c.get('requestId') },
      });
    } catch (error) {
      await transitionInstanceStatus(db, instance.id, [rule.during], instance.status);
      throw workflowStartError(error);
    }
    await recordActivity(db, {
      instanceId: instance.id,
      userId,
      actor: `user:${userId}`,
      event: `instance.power.${action}.requested`,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance({ ...instance, status: rule.during }), 202);
  });
}
