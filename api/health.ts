import type { OpenAPIHono } from '@hono/zod-openapi';
import { readiness } from '../services/health.js';
import type { AppEnv } from './context.js';

/**
 * The probes of an orchestrator (docs/operations.md "Health"), outside every API's authentication:
 * `/healthz`, the process answers; `/readyz`, it can serve (503 with the failing checks otherwise).
 */
export function registerHealth(app: OpenAPIHono<AppEnv>): void {
  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }));
  app.get('/readyz', async (c) => {
    const { ready, checks } = await readiness(c.get('deps'));
    return c.json({ status: ready ? 'ready' : 'unready', checks }, ready ? 200 : 503, {
      'Cache-Control': 'no-store',
    });
  });
}
