import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Actor } from '../../../domain/actors.js';
import type { AppEnv } from '../../../http/context.js';
import type { ServiceDeps } from '../../../services/context.js';
import {
  commonErrors,
  conflictResponse,
  jsonContent,
  notFoundResponse,
  workflowUnavailableResponse,
} from '../../../wire/schemas.js';
import type { z } from '../../../wire/zod.js';
import { customerActor } from '../../auth/principals.js';
import { backupParams } from './backups/params.js';
import { snapshotParams } from './snapshots/params.js';

/** How a path names one backup or one snapshot of an instance. */
const KINDS = {
  backup: { segment: 'backups', param: 'cloudBackup', tag: 'Backups', params: backupParams },
  snapshot: { segment: 'snapshots', param: 'cloudSnapshot', tag: 'Snapshots', params: snapshotParams },
} as const;

/** The instance and the backup or snapshot a request names, and its request id. */
export interface ArtifactTarget {
  readonly instanceId: string;
  readonly artifactId: string;
  readonly correlationId: string | null;
}

/**
 * An action on one backup or snapshot of the caller's instance, accepted with 202 and what its
 * service returns: the action routes (verify, delete and restore of a backup; delete and restore
 * of a snapshot) differ only in these words, their service and the envelope they answer with.
 */
export function artifactActionRoute<Row, E extends z.ZodType>(spec: {
  readonly kind: keyof typeof KINDS;
  readonly method: 'post' | 'delete';
  /** The last path segment (`verify`, `restore`); none for a delete. */
  readonly action?: string;
  readonly summary: string;
  readonly description: string;
  readonly accepted: string;
  readonly conflict: string;
  readonly envelope: E;
  readonly serialize: (row: Row) => z.infer<E>;
  readonly run: (
    deps: ServiceDeps,
    actor: Extract<Actor, { type: 'user' }>,
    target: ArtifactTarget,
  ) => Promise<Row>;
}) {
  const kind = KINDS[spec.kind];
  const route = createRoute({
    method: spec.method,
    path: `/{cloudInstance}/${kind.segment}/{${kind.param}}${spec.action ? `/${spec.action}` : ''}`,
    tags: [kind.tag],
    summary: spec.summary,
    description: spec.description,
    request: { params: kind.params },
    responses: {
      202: jsonContent(spec.envelope, spec.accepted),
      ...commonErrors,
      ...notFoundResponse,
      ...conflictResponse(spec.conflict),
      ...workflowUnavailableResponse,
    },
  });
  return {
    register(app: OpenAPIHono<AppEnv>): void {
      app.openapi(route, async (c) => {
        const params = c.req.valid('param') as Record<string, string>;
        const row = await spec.run(c.get('deps'), customerActor(c), {
          instanceId: params.cloudInstance!,
          artifactId: params[kind.param]!,
          correlationId: c.get('requestId'),
        });
        return c.json(spec.serialize(row), 202);
      });
    },
  };
}
