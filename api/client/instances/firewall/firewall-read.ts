import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { findFirewall } from '../../../../db/repositories/network/firewalls.js';
import type { AppEnv } from '../../../../http/context.js';
import {
  type commonErrors,
  jsonContent,
  type notFoundResponse,
  uuidParam,
} from '../../../../wire/schemas.js';
import { FirewallEnvelope, serializeFirewall } from '../../../../wire/serializers/network/firewall.js';
import { callersInstance } from '../callers-instance.js';
import type { FirewallPath } from './paths.js';

/** What every firewall path's `GET` says it answers. */
export const FIREWALL_READ_DESCRIPTION =
  'The toggle, the rules in order and whether the hypervisor has applied them (as every firewall path answers).';

/** A firewall read's 200. */
export const firewallShown = jsonContent(FirewallEnvelope, 'The firewall.');

/**
 * `GET /{cloudInstance}/firewall<part>`: the caller's instance's whole firewall, whichever part the
 * path names. The route file states its method, path and responses.
 */
export function firewallShowRoute(spec: {
  readonly method: 'get';
  readonly path: FirewallPath;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 200: typeof firewallShown } & typeof commonErrors & typeof notFoundResponse;
}) {
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: ['Firewall'],
    summary: spec.summary,
    description: spec.description,
    request: { params: uuidParam('cloudInstance') },
    responses: spec.responses,
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const instance = await callersInstance(c, c.req.valid('param').cloudInstance);
        const { db, config } = c.get('deps');
        return c.json(serializeFirewall(await findFirewall(db, instance.id), config.FIREWALL_RULES_MAX), 200);
      });
    },
  };
}
