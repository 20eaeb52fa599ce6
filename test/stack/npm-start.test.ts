import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort, isPortOpen } from '../../platform/ports.js';
import { applicationApi, clientApi } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startOtlpCollector } from '../support/otlp-collector.js';
import { dataFolder, descendantRunning, startStackProcess, stopStack } from '../support/stack-process.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Started {
  child: ChildProcess;
  output: string[];
  apiUrl: string;
  clientKey: string;
  applicationKey: string;
  /** The demo instance's uuid and status, as the banner printed them. */
  demoInstance: string;
  demoStatus: string;
  planAndLocation: string;
}

/** `npm start` exactly as the README shows it, on its own ports and data folder, with the embedded database. */
async function npmStart(
  dataDir: string,
  ports: Record<string, number>,
  settings: Record<string, string> = {},
): Promise<Started> {
  const started = await startStackProcess(
    ['start'],
    {
      CLOUDSVC_DATA_DIR: dataDir,
      PORT: String(ports.api),
      TEMPORAL_PORT: String(ports.temporal),
      TEMPORAL_UI_PORT: String(ports.ui),
      EMBEDDED_DB_PORT: String(ports.db),
      CONSOLE_GATEWAY_PORT: String(ports.gateway),
      WORKER_HTTP_PORT: String(ports.worker),
      METRICS_PORT: String(ports.metrics),
      ...settings,
    },
    150_000,
  );
  const demo = /Demo instance\s+(\S+) \((\w+)\)/.exec(started.banner);
  return {
    child: started.child,
    output: started.output,
    apiUrl: started.field('API base URL'),
    clientKey: started.field('Client key'),
    applicationKey: started.field('Application key'),
    demoInstance: demo?.[1] ?? '',
    demoStatus: demo?.[2] ?? '',
    planAndLocation: /Plan, location\s+(.+)/.exec(started.banner)?.[1]?.trim() ?? '',
  };
}

describe('npm start', () => {
  it('starts the stack, serves the printed keys, restarts a crashed child, stops everything on Ctrl-C and keeps its data', {
    timeout: 300_000,
  }, async () => {
    const dataDir = dataFolder();
    const ports = {
      api: await freePort(),
      temporal: await freePort(),
      ui: await freePort(),
      db: await freePort(),
      gateway: await freePort(),
      worker: await freePort(),
      metrics: await freePort(),
    };

    // The first start traces, to a collector's OTLP receiver; the second does not.
    const collector = await startOtlpCollector();
    const first = await npmStart(dataDir, ports, {
      TRACING_ENABLED: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    });
    expect(first.output.join('')).toContain(`Traces            ${collector.url}/v1/traces (OTLP/HTTP)`);
    expect(first.output.join('')).toContain(`Temporal UI       http://127.0.0.1:${ports.ui}`);
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
    // The console gateway runs beside the API, which offers the demo instance's serial console.
    expect(await isPortOpen(ports.gateway)).toBe(true);
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

    expect(await stopStack(first)).toContain('stopped.');
    await collector.close();
    for (const port of Object.values(ports)) expect(await isPortOpen(port)).toBe(false);

    const second = await npmStart(dataDir, ports);
    expect(second.clientKey).toBe(first.clientKey);
    expect(second.demoInstance).toBe(demo.uuid);
    const again = await clientApi(second.apiUrl, second.clientKey).GET('/');
    expect(again.data!.data.map((d) => d.attributes.uuid)).toEqual([demo.uuid]);
    expect(await stopStack(second)).toContain('stopped.');
    for (const port of Object.values(ports)) expect(await isPortOpen(port)).toBe(false);
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
