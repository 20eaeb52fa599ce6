import http from 'node:http';

/**
 * A small HTTP load generator over keep-alive connections. Closed loop (N clients, each sending
 * its next request when the last one answers) finds the peak; open loop (a fixed arrival rate,
 * whatever the answers do) measures latency at a given load without hiding queueing.
 */
export interface LoadResult {
  readonly requests: number;
  readonly errors: number;
  readonly seconds: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
}

export interface Target {
  readonly port: number;
  readonly path: string;
  readonly headers: Record<string, string>;
}

function request(agent: http.Agent, target: Target): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port: target.port, path: target.path, headers: target.headers, agent },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      },
    );
    req.on('error', () => resolve(false));
    req.end();
  });
}

function summarize(latencies: number[], errors: number, seconds: number): LoadResult {
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return {
    requests: sorted.length,
    errors,
    seconds,
    rps: sorted.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
  };
}

export async function closedLoop(target: Target, clients: number, seconds: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        if (await request(agent, target)) latencies.push(performance.now() - t0);
        else errors++;
      }
    }),
  );
  agent.destroy();
  return summarize(latencies, errors, (performance.now() - started) / 1000);
}

export async function openLoop(target: Target, rate: number, seconds: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const latencies: number[] = [];
  let errors = 0;
  const total = Math.floor(rate * seconds);
  const started = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    // Latency is counted from when the request was due, so a stalled generator shows as latency.
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inflight.push(
      request(agent, target).then((ok) => {
        if (ok) latencies.push(performance.now() - due);
        else errors++;
      }),
    );
  }
  await Promise.all(inflight);
  agent.destroy();
  return summarize(latencies, errors, (performance.now() - started) / 1000);
}
