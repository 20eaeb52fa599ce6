import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { timezone } from '../../../domain/instances/settings.js';
import { changeSetting } from '../../../services/instances/settings.js';
import type { AppEnv } from '../../context.js';
import { customerActor } from '../../principals.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../serializers/instance.js';
import { z } from '../../zod.js';
import { SETTINGS_REFUSALS, settingsConflictResponse } from './settings-common.js';

const TimezoneBody = z
  .object({ timezone: timezone.openapi({ example: 'Europe/Berlin' }) })
  .openapi('TimezoneRequest');

const route = createRoute({
  method: 'patch',
  path: '/{cloudInstance}/settings/timezone',
  tags: ['Instance settings'],
  summary: 'Change the timezone',
  description:
    'An IANA time zone name, or `UTC`: one the server’s time zone data lists (`Europe/Berlin`), or a current ' +
    'name it knows under an older one (`Asia/Kolkata`, `Europe/Kyiv`); spelled in the database’s case, as a ' +
    'guest looks its zone up by exact name. The panel’s record changes at once; the hypervisor applies the ' +
    `timezone to the guest at the next rebuild (the rebuild task carries it). ${SETTINGS_REFUSALS}`,
  request: { params: uuidParam('cloudInstance'), body: jsonBody(TimezoneBody) },
  responses: {
    200: jsonContent(InstanceEnvelope, 'The instance with its new timezone.'),
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
      setting: 'timezone',
      value: c.req.valid('json').timezone,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance(instance), 200);
  });
}
