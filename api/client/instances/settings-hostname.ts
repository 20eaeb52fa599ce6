import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { HOSTNAME_MAX, hostname } from '../../../domain/instances/settings.js';
import { changeSetting } from '../../../services/instances/settings.js';
import type { AppEnv } from '../../context.js';
import { customerActor } from '../../principals.js';
import { commonErrors, jsonBody, jsonContent, notFoundResponse, uuidParam } from '../../schemas.js';
import { InstanceEnvelope, serializeInstance } from '../../serializers/instance.js';
import { z } from '../../zod.js';
import { SETTINGS_REFUSALS, settingsConflictResponse } from './settings-common.js';

const HostnameBody = z
  .object({ hostname: hostname.openapi({ example: 'web-1.example.com', maxLength: HOSTNAME_MAX }) })
  .openapi('HostnameRequest');

const route = createRoute({
  method: 'patch',
  path: '/{cloudInstance}/settings/hostname',
  tags: ['Instance settings'],
  summary: 'Change the hostname',
  description:
    'An RFC 1123 hostname: at most 253 characters, dot-separated labels of 1 to 63 letters, digits and ' +
    'hyphens, no label starting or ending with a hyphen, the last label not all digits. The panel’s record ' +
    'changes at once; the hypervisor applies the hostname to the guest at the next rebuild (the rebuild ' +
    `task carries it). ${SETTINGS_REFUSALS}`,
  request: { params: uuidParam('cloudInstance'), body: jsonBody(HostnameBody) },
  responses: {
    200: jsonContent(InstanceEnvelope, 'The instance with its new hostname.'),
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
      setting: 'hostname',
      value: c.req.valid('json').hostname,
      correlationId: c.get('requestId'),
    });
    return c.json(serializeInstance(instance), 200);
  });
}
