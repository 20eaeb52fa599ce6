import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitForPort } from '../../platform/ports.js';
import type { Children } from '../start/children.js';

/**
 * HAProxy (Debian's package) in front of the API processes: round robin, each checked on /readyz
 * every second and taken out after two failures. Each request gets a connection of its own to its
 * API (`http-reuse never`), so a request to a process that died is refused before any byte of it
 * is sent, and goes to the next one: safe for every method, a write included. Only a request in
 * flight when its process dies is lost, and its caller sees the connection end (retryable).
 * Long polls and console streams outlive the default timeouts.
 */
export function haproxyConfig(options: {
  /** Where it listens (`127.0.0.1:8080`; `:8080` in a container). */
  readonly bind: string;
  /** The API servers, one `server` (or `server-template`) line each, without the checks. */
  readonly servers: readonly string[];
  /** A `resolvers` section (compose: Docker's DNS, which names every replica of the API). */
  readonly resolvers?: string;
}): string {
  return `# Written by scripts/prod/proxy.ts (haproxyConfig): npm run stack:prod writes it at each start,
# and docker/haproxy.cfg is the compose file's copy (test/deploy/compose.test.ts holds them equal).
global
  maxconn 4096
  log stderr format short local0 notice
${options.resolvers ?? ''}defaults
  mode http
  log global
  option httplog
  option log-health-checks
  option forwardfor
  retries 2
  option redispatch 1
  http-reuse never
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
frontend api
  bind ${options.bind}
  default_backend apis
backend apis
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
${options.servers.map((server) => `  ${server} check inter 1s fall 2 rise 1`).join('\n')}
`;
}

/** The compose file's proxy: every replica of the `api` service, as Docker's DNS names them. */
export const COMPOSE_HAPROXY = {
  bind: ':8080',
  resolvers: 'resolvers docker\n  nameserver dns 127.0.0.11:53\n',
  servers: ['server-template api- 2 api:8080 resolvers docker init-addr none'],
} as const;

/** HAProxy, one of the stack's children (`haproxy`, logging to logs/haproxy.log); resolves once it listens. */
export async function startProxy(options: {
  readonly folder: string;
  readonly listenPort: number;
  readonly apiPorts: readonly number[];
  readonly children: Children;
}): Promise<void> {
  if (spawnSync('haproxy', ['-v']).error) {
    throw new Error('the production shape needs HAProxy on PATH (Debian: apt-get install haproxy)');
  }
  const config = join(options.folder, 'haproxy.cfg');
  writeFileSync(
    config,
    haproxyConfig({
      bind: `127.0.0.1:${options.listenPort}`,
      servers: options.apiPorts.map((port, i) => `server api-${i + 1} 127.0.0.1:${port}`),
    }),
  );
  // -db: in the foreground, logging to stderr; a child of this script like the others.
  options.children.run('haproxy', 'haproxy', ['-db', '-f', config]);
  await waitForPort(options.listenPort, 10_000, 'HAProxy');
}
