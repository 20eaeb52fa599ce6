/**
 * Where a served request's CPU goes, read from a V8 CPU profile of the API
 * (`BENCH_CPU_PROFILE_DIR`, docs/performance.md): each sample is given to the nearest frame, leaf
 * to root, that belongs to a part of the request path (a middleware of ours, the route, Hono, the
 * Node adapter, tracing); a library such a part calls (prom-client, zod, JSON) is counted to its
 * caller. The socket's, Node's HTTP and pg's own work, and garbage collection, are counted as
 * such whoever called them: the baseline does that work too. Idle samples are left out, and so is the start-up
 * (connecting, loading modules, which goes on after the first requests): samples count from the
 * first request the Node adapter took, and none that loads a module.
 *
 *   node --import tsx bench/profile-shares.ts <file.cpuprofile> [requests served]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The parts of the request path, first match wins; a frame matching none is a library's. */
const PARTS: readonly (readonly [string, RegExp])[] = [
  [
    'request metrics (middleware/http-metrics)',
    /\/api\/middleware\/http-metrics\.|node_modules\/prom-client\//,
  ],
  ['request context (middleware/request-context)', /\/api\/middleware\/(request-context|request-id)\./],
  ['credential check (api/auth)', /\/(api\/auth\/middleware|http\/credential-cache)\./],
  ['body limit (middleware/body-limit)', /\/api\/middleware\/(body-limit|no-body)\./],
  ['parameter checks (middleware/hot-path)', /\/api\/(middleware\/hot-path|routes-kit\/validation)\./],
  ['tracing (@hono/otel, OpenTelemetry)', /node_modules\/(@hono\/otel|@opentelemetry)\//],
  ['route, repository and serializer', /\/(api\/client|wire|db|domain)\//],
  ['error envelope and not-found', /\/(http\/error-envelope|server\/app)\./],
  ['Hono: router and middleware chain', /node_modules\/(hono|@hono\/zod-openapi)\//],
  ['Node adapter (@hono/node-server)', /node_modules\/@hono\/node-server\//],
];

/** Where a sample no part of the request path holds is counted. */
const LEAVES: readonly (readonly [string, RegExp])[] = [
  ['pg (protocol, pool)', /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//],
  ['Node: HTTP, sockets, timers', /^node:|^internal\//],
  ['garbage collection', /^\(garbage collector\)$/],
];

const OTHER = 'other (V8, native, libraries)';

function partOf(url: string): string | undefined {
  return PARTS.find(([, pattern]) => pattern.test(url))?.[0];
}

function leafOf(frame: ProfileNode['callFrame']): string {
  const key = frame.url || `(${frame.functionName.replace(/^\(|\)$/g, '')})`;
  return LEAVES.find(([, pattern]) => pattern.test(key))?.[0] ?? OTHER;
}

export function profileShares(profile: CpuProfile): Map<string, number> {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const partCache = new Map<number, string | null>();
  /** The part a sample is counted to; null: loading a module. */
  const categoryOf = (id: number): string | null => {
    const cached = partCache.get(id);
    if (cached !== undefined) return cached;
    let loading = false;
    let own: string | undefined;
    let category: string | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { url } = byId.get(at)!.callFrame;
      if (/^node:internal\/modules\//.test(url)) loading = true;
      // A native leaf (a syscall, a builtin) belongs to the nearest frame with a source.
      if (own === undefined && url) own = url;
      category ??= partOf(url);
    }
    const leaf = byId.get(id)!.callFrame;
    const common = leafOf(own ? { ...leaf, url: own } : leaf);
    // The socket's and pg's own work is the same whoever called it, so it is not the caller's.
    const result = loading ? null : common !== OTHER ? common : (category ?? OTHER);
    partCache.set(id, result);
    return result;
  };
  const servedFirst = profile.samples.findIndex((id) => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (/node_modules\/@hono\/node-server\//.test(byId.get(at)!.callFrame.url)) return true;
    }
    return false;
  });
  const micros = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    if (i < servedFirst || byId.get(id)!.callFrame.functionName === '(idle)') return;
    const category = categoryOf(id);
    if (category === null) return;
    micros.set(category, (micros.get(category) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return micros;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, served] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-shares.ts <file.cpuprofile> [requests served]');
  const shares = [...profileShares(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile)].sort(
    (a, b) => b[1] - a[1],
  );
  const busy = shares.reduce((sum, [, us]) => sum + us, 0);
  const requests = served ? Number(served) : undefined;
  console.log(`busy ${(busy / 1e6).toFixed(2)} s of CPU${requests ? `, ${requests} requests` : ''}`);
  for (const [category, us] of shares) {
    const perRequest = requests ? `  ${(us / requests).toFixed(2).padStart(7)} µs/request` : '';
    console.log(`${((100 * us) / busy).toFixed(1).padStart(5)}%${perRequest}  ${category}`);
  }
}
