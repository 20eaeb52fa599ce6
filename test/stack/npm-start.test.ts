import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeStackBase, isPortOpen } from '../../platform/ports.js';
import { STACK_PORT_SPAN, type StackPorts, stackPorts } from '../../platform/stack-ports.js';
import { applicationApi, clientApi } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startOtlpCollector } from '../support/otlp-collector.js';
import {
  dataFolder,
  descendantRunning,
  descendants,
  endStack,
  listenersOf,
  running,
  startStackProcess,
  stopStack,
} from '../support/stack-process.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Started {
  child: ChildProcess;
  output: string[];
  ports: StackPorts;
  apiUrl: string;
  clientKey: string;
  applicationKey: string;
  /** The demo instance's uuid and status, as the banner printed them. */
  demoInstance: string;
  demoStatus: string;
  planAndLocation: string;
}

/** `npm start` exactly as the README shows it, on its own base port and data folder, with the embedded database. */
async function npmStart(
  dataDir: string,
  base: number,
  settings: Record<string, string> = {},
): Promise<Started> {
  const started = await startStackProcess(
    ['start'],
    { CLOUDSVC_DATA_DIR: dataDir, PORT: String(base), ...settings },
    150_000,
  );
  const demo = /Demo instance\s+(\S+) \((\w+)\)/.exec(started.banner);
  return {
    child: started.child,
    output: started.output,
    ports: stackPorts(base),
    apiUrl: started.field('API base URL'),
    clientKey: started.field('Client key'),
    applicationKey: started.field('Application key'),
    demoInstance: demo?.[1] ?? '',
    demoStatus: demo?.[2] ?? '',
    planAndLocation: /Plan, location\s+(.+)/.exec(started.banner)?.[1]?.trim() ?? '',
  };
}

/** The ports npm start listens on: each where the one rule puts it (platform/stack-ports.ts). */
const listened = (p: StackPorts) => [
  p.api,
  p.consoleGateway,
  p.worker,
  p.metrics,
  p.workerSdkMetrics,
  p.database,
  p.temporal,
  p.temporalUi,
  p.temporalHttp,
  p.temporalMetrics,
];

/** Every process of a stack, npm's included, and the ones that run the Temporal dev server. */
function family(stack: Started) {
  const all = [{ pid: stack.child.pid!, args: 'npm' }, ...descendants(stack.child.pid!)];
  return { all, temporal: all.filter((p) => / server start-dev /.test(p.args)).map((p) => p.pid) };
}

/** Every process and port of a stack are gone. */
async function gone(pids: readonly number[], ports: StackPorts) {
  await eventually(() => !pids.some(running), 30_000, 'every process of the stack to end');
  for (const port of listened(ports)) expect(await isPortOpen(port), `port ${port}`).toBe(false);
}

/**
 * One stack, the first, runs through the file: a second starts beside it in a test that fails
 * on purpose, and the first is then ended as a process manager ends it and started again.
 */
const dataDir = dataFolder();
const collector = await startOtlpCollector();
let first: Started;
beforeAll(async () => {
  // The first start traces, to a collector's OTLP receiver; the restart does not.
  first = await npmStart(dataDir, await freeStackBase(), {
    TRACING_ENABLED: 'true',
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
  });
}, 180_000);
afterAll(async () => {
  if (first) await endStack(first);
  await collector.close();
});

describe('npm start', () => {
  it('starts the stack, every listener on its port from PORT, serves the printed keys and restarts a crashed child', {
    timeout: 180_000,
  }, async () => {
    const { ports } = first;
    expect(first.output.join('')).toContain(`Traces            ${collector.url}/v1/traces (OTLP/HTTP)`);
    expect(first.output.join('')).toContain(`Temporal UI       http://127.0.0.1:${ports.temporalUi}`);
    // The Temporal CLI is there already: nothing says it is built.
    expect(first.output.join('')).not.toContain('Building the Temporal CLI');
    // Every process of the stack listens only on its ports, the Temporal dev server's own services
    // (free ports of the system's choosing) aside; the worker's SDK metrics among them.
    const { all, temporal } = family(first);
    const outside = listenersOf(all.map((p) => p.pid)).filter(
      (l) => !temporal.includes(l.pid) && (l.port < ports.base || l.port >= ports.base + STACK_PORT_SPAN),
    );
    expect(outside).toEqual([]);
    for (const port of listened(ports)) expect(await isPortOpen(port), `port ${port}`).toBe(true);
    expect((await fetch(`http://127.0.0.1:${ports.workerSdkMetrics}/metrics`)).status).toBe(200);
    // The banner shows the demo instance once it runs, and the codes the README's examples use.
    expect(first.demoStatus).toBe('running');
    expect(first.planAndLocation).toBe('demo-small, demo-1');
    // The customer and the administrator speak through the clients generated from the documents.
    const customer = clientApi(first.apiUrl, first.clientKey);
    const list = await customer.GET('/');
    expect(list.response.status).toBe(200);
    const demo = list.data!.data[0]!.attributes;
    expect(demo).toMatchObject({ name: 'demo-instance', uuid: first.demoInstance, status: 'running' });
    const hypervisors = await applicationApi(first.apiUrl, first.applicationKey).GET('/hypervisors');
    expect(hypervisors.data!.data[0]!.attributes).toMatchObject({ name: 'demo-hv-1', status: 'online' });
    // The worker's probes answer: it runs, polling its task queue.
    const workerReady = await fetch(`http://127.0.0.1:${ports.worker}/readyz`);
    expect(workerReady.status, await workerReady.clone().text()).toBe(200);
    const apiReady = await fetch(`http://127.0.0.1:${ports.api}/readyz`);
    expect(apiReady.status, await apiReady.clone().text()).toBe(200);
    // Prometheus can scrape the API on its own port, the banner says where.
    expect((await fetch(`http://127.0.0.1:${ports.metrics}/metrics`)).status).toBe(200);
    expect(first.output.join('')).toContain(`http://127.0.0.1:${ports.metrics}/metrics`);
    // The API reference the banner names renders each document's page, from swagger-ui-dist.
    const reference = await fetch(`${first.apiUrl}/docs/client`);
    expect(reference.status).toBe(200);
    expect(await reference.text()).toContain('/docs/assets/swagger-ui-bundle.js');
    const offer = await customer.GET('/{cloudInstance}/console', {
      params: { path: { cloudInstance: demo.uuid } },
    });
    expect(offer.data!.attributes).toMatchObject({ serial: true });

    // A crashed worker is started again, and workflows run on the new one.
    const worker = descendantRunning(first.child.pid!, 'worker/main.ts');
    expect(worker).toBeGreaterThan(0);
    process.kill(worker!, 'SIGKILL');
    await eventually(
      () => first.output.join('').includes('worker exited (SIGKILL); starting it again in 1 s'),
      10_000,
      'the restart notice',
    );
    await eventually(
      () => {
        const again = descendantRunning(first.child.pid!, 'worker/main.ts');
        return again !== undefined && again !== worker;
      },
      15_000,
      'a new worker',
    );
    const instance = { params: { path: { cloudInstance: demo.uuid } } };
    const stop = await customer.POST('/{cloudInstance}/power', { ...instance, body: { action: 'stop' } });
    expect(stop.response.status).toBe(202);
    await eventually(
      async () => (await customer.GET('/{cloudInstance}', instance)).data?.attributes.status === 'stopped',
      60_000,
      'the demo instance to stop on the new worker',
    );

    // The stop is one trace in the collector, from the customer's request to the agent's task.
    const agentTask = await eventually(
      () =>
        collector.spans.find((s) => {
          const root = collector.lineage(s).at(-1)!;
          return (
            s.service === 'cloudsvc-agent' &&
            s.name === 'agent task instance.power' &&
            root.service === 'cloudsvc-api' &&
            String(root.attributes['http.route']).endsWith('/:cloudInstance/power')
          );
        }),
      20_000,
      'the traced stop',
    );
    const services = new Set(collector.lineage(agentTask).map((s) => s.service));
    expect([...services].sort()).toEqual(['cloudsvc-agent', 'cloudsvc-api', 'cloudsvc-worker']);
  });

  /** What the next test finds of this one's stack: its processes and ports. */
  let second: { pids: number[]; ports: StackPorts; failedOnPurpose: boolean } | undefined;

  it.fails('(fails on purpose) a second stack runs beside the first on another PORT, every port moved with it', {
    timeout: 180_000,
  }, async () => {
    const other = await npmStart(dataFolder(), await freeStackBase());
    second = { pids: family(other).all.map((p) => p.pid), ports: other.ports, failedOnPurpose: false };
    for (const stack of [first, other]) {
      expect((await clientApi(stack.apiUrl, stack.clientKey).GET('/')).response.status).toBe(200);
      const ready = await fetch(`http://127.0.0.1:${stack.ports.worker}/readyz`);
      expect(ready.status, await ready.text()).toBe(200);
      expect((await fetch(`http://127.0.0.1:${stack.ports.workerSdkMetrics}/metrics`)).status).toBe(200);
    }
    second.pids = family(other).all.map((p) => p.pid);
    second.failedOnPurpose = true;
    throw new Error('this test fails on purpose, its stack running: the next one finds nothing of it');
  });

  it('a test that fails stops everything it started', async () => {
    expect(second?.failedOnPurpose).toBe(true);
    await gone(second!.pids, second!.ports);
    // The first stack, beside it, runs on.
    expect((await fetch(`http://127.0.0.1:${first.ports.api}/readyz`)).status).toBe(200);
  });

  it("stops everything on a process manager's SIGTERM to npm, and the next start finds the same data", {
    timeout: 240_000,
  }, async () => {
    const { all } = family(first);
    process.kill(first.child.pid!, 'SIGTERM');
    await gone(
      all.map((p) => p.pid),
      first.ports,
    );
    expect(first.output.join('')).toContain('stopped.');

    const again = await npmStart(dataDir, first.ports.base);
    expect(again.clientKey).toBe(first.clientKey);
    expect(again.demoInstance).toBe(first.demoInstance);
    const listed = await clientApi(again.apiUrl, again.clientKey).GET('/');
    expect(listed.data!.data.map((d) => d.attributes.uuid)).toEqual([first.demoInstance]);
    // Ctrl-C: the terminal's SIGINT to the whole group.
    const pids = family(again).all.map((p) => p.pid);
    expect(await stopStack(again)).toContain('stopped.');
    await gone(pids, again.ports);
  });

  it('refuses a data folder of the old embedded default, saying what to do, and leaves it as it was', async () => {
    const dataDir = dataFolder();
    mkdirSync(join(dataDir, 'pglite'));
    const { DATABASE_URL: _external, ...env } = process.env;
    const child = spawn('npm', ['start'], {
      cwd: root,
      env: { ...env, CLOUDSVC_DATA_DIR: dataDir },
      stdio: 'pipe',
    });
    const output: string[] = [];
    child.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
    child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
    const code = await new Promise<number | null>((r) => child.once('close', r));
    expect(code).not.toBe(0);
    expect(output.join('')).toContain('holds a database of the old embedded default (PGlite)');
    expect(output.join('')).toContain('move');
    expect(execFileSync('ls', [dataDir], { encoding: 'utf8' }).trim().split('\n')).toEqual(['pglite']);
  });
});
