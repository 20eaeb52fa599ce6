import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../../db/database.js';
import { notFound } from '../../domain/errors.js';
import type { AppEnv } from '../../http/context.js';
import { commonErrors, jsonContent, notFoundResponse, uuidParam } from '../../wire/schemas.js';
import type { z } from '../../wire/zod.js';

/** The kinds of what an administrator keeps, as their routes name them: `/plans/{plan}`, and so on. */
export interface ResourceKind {
  readonly resources:
    | 'locations'
    | 'plans'
    | 'images'
    | 'ip-pools'
    | 'users'
    | 'instances'
    | 'tasks'
    | 'providers'
    | 'floating-ips'
    | 'volumes'
    | 'console/sessions';
  readonly param:
    | 'location'
    | 'plan'
    | 'image'
    | 'pool'
    | 'user'
    | 'instance'
    | 'task'
    | 'provider'
    | 'floatingIp'
    | 'volume'
    | 'session';
  readonly tag: string;
}

/** `GET /<resources>/{<param>}`: one resource as an administrator sees it. */
export function showRoute<Row, E extends z.ZodType>(
  spec: ResourceKind & {
    readonly summary: string;
    readonly envelope: E;
    readonly find: (db: Database, id: string) => Promise<Row | undefined>;
    readonly serialize: (row: Row) => z.infer<E>;
  },
) {
  const route = createRoute({
    method: 'get',
    path: `/${spec.resources}/{${spec.param}}`,
    tags: [spec.tag],
    summary: spec.summary,
    request: { params: uuidParam(spec.param) },
    responses: {
      200: jsonContent(spec.envelope, `The ${spec.param}.`),
      ...commonErrors,
      ...notFoundResponse,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const id = (c.req.valid('param') as Record<string, string>)[spec.param]!;
        const row = await spec.find(c.get('deps').db, id);
        if (!row) throw notFound();
        return c.json(spec.serialize(row), 200);
      });
    },
  };
}
