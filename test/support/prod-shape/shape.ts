import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SimulatedState, simulatedStatePath } from '../../../agent/drivers/simulated/state.js';
import { createDatabase, type Database } from '../../../db/database.js';
import { freeStackBase } from '../../../platform/ports.js';
import { stackPorts } from '../../../platform/stack-ports.js';
import { agentName } from '../../../scripts/start/agents.js';
import { adminApi, applicationApi, clientApi } from '../clients.js';
import { dataFolder, startStackProcess, stopStack } from '../stack-process.js';
import { startLink } from './link.js';
import { shapeMissing } from './needs.js';
import { type Part, shapeParts } from './parts.js';
import { restartablePostgres } from './postgres.js';

/** How fast a lost agent or worker is noticed: the tests' timings, so a fault costs seconds. */
const QUICK_TIMING = {
  AGENT_TASK_HEARTBEAT_TIMEOUT_MS: '3000',
  AGENT_TASK_LEASE_MS: '2000',
  AGENT_POLL_MAX_WAIT_MS: '2000',
  MIGRATION_SOURCE_RETENTION_MS: '300',
};

/**
 * `npm run stack:prod` as its user runs it (two APIs behind HAProxy, two workers, the Temporal
 * server on PostgreSQL, the simulated hypervisors' agents: STACK_HYPERVISORS in `settings`, two
 * by default), on a PostgreSQL server its caller owns (DATABASE_URL, as in production), so that
 * a fault test can restart it; the rest a test hits through the processes the stack supervises,
 * which start again what dies. The fault suite and the soak (bench/soak) run on it.
 */
/** How long the stack may take to print its banner on a loaded machine (a CI run: about 5 minutes). */
const STACK_START_MS = 360_000;
/**
 * The bound for a hook that calls startProdShape: above the stack's own, and its PostgreSQL's
 * start, so a slow start fails with what the stack printed and leaves nothing running.
 */
export const PROD_SHAPE_START_MS = STACK_START_MS + 120_000;

export async function startProdShape(
  settings: Record<string, string> = {},
  options: {
    /** The agents reach the API through a link the test can cut. */
    readonly agentLink?: boolean;
    /** The tests' timings (QUICK_TIMING), unless false: production's then. */
    readonly quickTiming?: boolean;
  } = {},
) {
  if (shapeMissing.length > 0) throw new Error(`the production shape needs ${shapeMissing.join(' and ')}`);
  const folder = dataFolder();
  const postgres = await restartablePostgres(join(folder, 'postgres-server'));
  // Every port of stack:prod follows PORT (platform/stack-ports.ts): one base with all of them free.
  const ports = stackPorts(await freeStackBase());
  // The agents' way to the proxy, through a link the test can cut (a partition).
  const link = options.agentLink ? await startLink(ports.api) : undefined;
  // A stack that did not come up is ended by startStackProcess; what it stood on is ended here,
  // or it would outlive the file and slow every file after it.
  const stack = await startStackProcess(
    ['run', 'stack:prod'],
    {
      CLOUDSVC_DATA_DIR: folder,
      DATABASE_URL: postgres.url,
      PORT: String(ports.base),
      ...(options.quickTiming !== false && QUICK_TIMING),
      ...(link && { AGENT_PANEL_URL: link.url }),
      ...settings,
    },
    STACK_START_MS,
  ).catch(async (error: unknown) => {
    await link?.close();
    await postgres.stop();
    throw error;
  });
  const url = `http://127.0.0.1:${ports.api}`;
  const pool = createDatabase({ url: postgres.url, poolSize: 4, namedStatements: false });
  const hypervisors = await pool.db
    .selectFrom('hypervisors')
    .select(['id', 'name'])
    .where('name', 'like', 'demo-hv-%')
    .execute();
  // demo-hv-<n>'s agent is agentName(n).
  const numbered = hypervisors
    .map((h) => ({ ...h, n: Number(h.name.slice('demo-hv-'.length)) }))
    .sort((a, b) => a.n - b.n);
  const agentOf = (hypervisorId: string) => agentName(numbered.find((h) => h.id === hypervisorId)!.n) as Part;

  const parts = shapeParts({
    stackPid: stack.child.pid!,
    folder,
    ports,
    agents: numbered.map((h) => agentOf(h.id)),
  });

  return {
    url,
    folder,
    link,
    db: pool.db as Database,
    customer: clientApi(url, stack.field('Client key')),
    admin: adminApi(url, stack.field('Application key')),
    application: applicationApi(url, stack.field('Application key')),
    demoInstance: stack.field('Demo instance'),
    hypervisors: numbered.map(({ id, name }) => ({ id, name, agent: agentOf(id) })),
    agents: numbered.map((h) => agentOf(h.id)),
    nameOf: (hypervisorId: string | null) => hypervisors.find((h) => h.id === hypervisorId)?.name ?? 'none',
    ...parts,
    /** The Application API of one API process, not through the proxy. */
    applicationAt: (part: 'api-1' | 'api-2') =>
      applicationApi(
        `http://127.0.0.1:${ports.replicaApis[part === 'api-1' ? 0 : 1]}`,
        stack.field('Application key'),
      ),
    /** An API process's metrics, as Prometheus would scrape them. */
    metricsOf: async (part: 'api-1' | 'api-2') =>
      (await fetch(`http://127.0.0.1:${ports.replicaApiMetrics[part === 'api-1' ? 0 : 1]}/metrics`)).text(),
    /** PostgreSQL stopped and started again (restartablePostgres). */
    restartDatabase: postgres.restart,
    /** The instances a simulated hypervisor holds, as its agent last wrote them. */
    hostedOn(hypervisorId: string): SimulatedState['instances'] {
      const path = simulatedStatePath(join(folder, agentOf(hypervisorId)));
      return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as SimulatedState).instances : {};
    },
    async stop(): Promise<string> {
      await pool.close();
      const printed = await stopStack(stack);
      await link?.close();
      await postgres.stop();
      return printed;
    },
  };
}

export type ProdShape = Awaited<ReturnType<typeof startProdShape>>;
export type { Part };
