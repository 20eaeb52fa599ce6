import { describe, expect, it } from 'vitest';
import { freeStackBase, isPortOpen } from '../../platform/ports.js';
import { type StackPorts, stackPorts } from '../../platform/stack-ports.js';
import { clientApi } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { skipWithoutShape } from '../support/prod-shape/needs.js';
import { dataFolder, listeningPid, startStackProcess, stopStack } from '../support/stack-process.js';

const skipped = skipWithoutShape('the production shape test');

/** `npm run stack:prod` on a base port of its own (every part's port follows it) and its own data folder. */
async function stackProd(ports: StackPorts) {
  const started = await startStackProcess(
    ['run', 'stack:prod'],
    { CLOUDSVC_DATA_DIR: dataFolder(), PORT: String(ports.base) },
    240_000,
  );
  return { ...started, clientKey: started.field('Client key'), demoInstance: started.field('Demo instance') };
}

describe.skipIf(skipped)('the production shape (npm run stack:prod)', () => {
  it('serves through HAProxy from two APIs and two workers on the Temporal server; one of each killed, it goes on', {
    timeout: 420_000,
  }, async () => {
    const ports = stackPorts(await freeStackBase());
    const stack = await stackProd(ports);
    let printed = '';
    const apiPorts = ports.replicaApis;
    const workerPorts = ports.replicaWorkers;
    try {
      expect(stack.output.join('')).toContain('Temporal server');
      const customer = clientApi(`http://127.0.0.1:${ports.api}`, stack.clientKey);
      const instance = { params: { path: { cloudInstance: stack.demoInstance } } };

      // The proxy spreads requests over both APIs: each one's request histogram counts some.
      for (let i = 0; i < 10; i++) expect((await customer.GET('/')).response.status).toBe(200);
      for (const port of ports.replicaApiMetrics) {
        const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        expect(metrics).toMatch(
          /cloudsvc_http_request_duration_seconds_count\{method="GET",route="\/api\/client\/cloud\/?"/,
        );
      }

      // kill -9 one API: a request caught in its death sees a retryable failure (HAProxy's 502, or
      // the connection ended); the proxy sends every other request to the other API.
      process.kill(listeningPid(apiPorts[0]!)!, 'SIGKILL');
      const answers: (number | string)[] = [];
      for (let i = 0; i < 20; i++)
        answers.push(
          await customer.GET('/').then(
            (r) => r.response.status,
            () => 'connection ended',
          ),
        );
      expect(answers.filter((a) => a !== 200).every((a) => a === 502 || a === 'connection ended')).toBe(true);
      expect(answers.filter((a) => a !== 200).length).toBeLessThanOrEqual(1);
      expect(answers.slice(-10)).toEqual(Array(10).fill(200));

      // kill -9 one worker: a power action still ends, run by the other on the Temporal server.
      process.kill(listeningPid(workerPorts[0]!)!, 'SIGKILL');
      const stop = await customer.POST('/{cloudInstance}/power', { ...instance, body: { action: 'stop' } });
      expect(stop.response.status).toBe(202);
      await eventually(
        async () => (await customer.GET('/{cloudInstance}', instance)).data?.attributes.status === 'stopped',
        60_000,
        'the demo instance to stop',
      );
    } finally {
      // Stopped whatever happened; what it printed is judged after, so a failure above stays the one told.
      printed = await stopStack(stack);
    }
    expect(printed).toContain('stopped.');
    for (const port of [ports.api, ...apiPorts, ...workerPorts, ports.temporal, ports.database])
      expect(await isPortOpen(port)).toBe(false);
  });
});
