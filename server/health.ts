import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/context.js';
import { type Readiness, readiness } from '../services/health.js';

/**
 * How long one answer of /readyz serves every probe that asks: it is unauthenticated, and each
 * answer costs database queries and a call to Temporal, so a flood of probes costs one of each a
 * second.
 */
const READINESS_SHARED_MS = 1_000;

/**
 * The probes of an orchestrator (docs/operations.md "Health"), outside every API's authentication:
 * `/healthz`, the process answers; `/readyz`, it can serve (503 with the failing checks otherwise).
 */
export function registerHealth(app: OpenAPIHono<AppEnv>): void {
  let latest: { at: number; answer: Promise<Readiness> } | undefined;
  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }));
  app.get('/readyz', async (c) => {
    if (!latest || performance.now() - latest.at > READINESS_SHARED_MS)
      latest = { at: performance.now(), answer: readiness(c.get('deps')) };
    const { ready, checks } = await latest.answer;
    return c.json({ status: ready ? 'ready' : 'unready', checks }, ready ? 200 : 503, {
      'Cache-Control': 'no-store',
    });
  });
}
