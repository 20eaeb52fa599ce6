import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { instanceName } from '../../../domain/instances/settings.js';
import { changeSetting } from '../../../services/instances/settings.js';
import type { AppEnv } from '../../context.js';
import { customerActor } from '../../principals.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../serializers/instance.js';
import { z } from '../../zod.js';
import { SETTINGS_REFUSALS, settingsConflictResponse } from './settings-common.js';

const RenameBody = z.object({ name: instanceName.openapi({ example: 'web-1' }) }).openapi('RenameRequest');

const route = createRoute({
  method: 'patch',
  path: '/{cloudInstance}/settings/rename',
  tags: ['Instance settings'],
  summary: 'Rename the instance',
  description:
    'Changes `name`, the panel’s label of the instance (1 to 100 characters, trimmed); the guest is not ' +
    `touched. ${SETTINGS_REFUSALS}`,
  request: { params: uuidParam('cloudInstance'), body: jsonBody(RenameBody) },
  responses: {
    200: jsonContent(InstanceEnvelope, 'The instance with its new name.'),
    ...commonErrors,
    ...notFoundResponse,
    ...settingsConflictResponse,
  },
});

export function register(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, async (c) => {
    const { cloudInstance } = c.req.valid('param');
    const instance = await changeSetting(c.get('deps'), customerActor(c), {
      instanceId: cloudInstance,
      setting: 'rename',
      value: c.req.valid('json').name,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance(instance), 200);
  });
}
