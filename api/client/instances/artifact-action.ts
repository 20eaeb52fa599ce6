import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Customer } from '../../../domain/actors.js';
import type { AppEnv } from '../../../http/context.js';
import type { ServiceDeps } from '../../../services/context.js';
import type {
  commonErrors,
  conflictResponse,
  JsonResponse,
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
type Kind = keyof typeof KINDS;

/** The path of one backup or snapshot, or of an action on it (`…/{cloudBackup}/verify`). */
type ArtifactPath<K extends Kind> =
  `/{cloudInstance}/${(typeof KINDS)[K]['segment']}/{${(typeof KINDS)[K]['param']}}${'' | `/${string}`}`;

/** The instance and the backup or snapshot a request names, and its request id. */
export interface ArtifactTarget {
  readonly instanceId: string;
  readonly artifactId: string;
  readonly correlationId: string | null;
}

/**
 * An action on one backup or snapshot of the caller's instance, accepted with 202 and what its
 * service returns: the action routes (verify, delete and restore of a backup; delete and restore
 * of a snapshot) differ only in their method, path and responses, which the route file states,
 * their words, their service and the envelope they answer with.
 */
export function artifactActionRoute<K extends Kind, Row, E extends z.ZodType>(spec: {
  readonly kind: K;
  readonly method: 'post' | 'delete';
  readonly path: ArtifactPath<NoInfer<K>>;
  readonly summary: string;
  readonly description: string;
  readonly responses: { 202: JsonResponse<E> } & typeof commonErrors &
    typeof notFoundResponse &
    ReturnType<typeof conflictResponse> &
    typeof workflowUnavailableResponse;
  readonly serialize: (row: Row) => z.infer<E>;
  readonly run: (deps: ServiceDeps, actor: Customer, target: ArtifactTarget) => Promise<Row>;
}) {
  const kind = KINDS[spec.kind];
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    tags: [kind.tag],
    summary: spec.summary,
    description: spec.description,
    request: { params: kind.params },
    responses: spec.responses,
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
