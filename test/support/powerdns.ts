import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../platform/ports.js';
import { eventually } from './eventually.js';

/**
 * A real PowerDNS authoritative server (Debian's `pdns-server` with the SQLite backend) for one
 * test file: its own directory, database, DNS port and API port, so runs never collide. Its HTTP
 * API is what the panel drives; `resolvePtr` asks its DNS port, as a resolver would.
 */
export interface PowerDns {
  /** The API's base URL, a DNS provider's endpoint. */
  readonly endpoint: string;
  readonly apiKey: string;
  readonly dnsPort: number;
  /** How long the last start took, until its API answered. */
  readonly startedInMs: number;
  /** Creates a zone (an operator's job, outside the panel). */
  createZone(zone: string): Promise<void>;
  /**
   * Adds a TSIG key to the server (as `pdnsutil import-tsig-key` does) and lets it sign RFC 2136
   * updates of `zone` (the zone's TSIG-ALLOW-DNSUPDATE). Needs `dnsUpdate`. The key's secret, base64.
   */
  allowUpdates(zone: string, keyName: string): Promise<string>;
  /** Sets one of a zone's metadata (`TSIG-ALLOW-AXFR`, `ALLOW-AXFR-FROM`, …), as `pdnsutil set-meta` does. */
  setMeta(zone: string, kind: string, values: string[]): Promise<void>;
  /** Puts a PTR record in a zone behind the panel's back (by hand, or another system). */
  putPtr(zone: string, name: string, content: string): Promise<void>;
  /** The PTR names the server answers for `address`; [] for NXDOMAIN or no answer. */
  resolvePtr(address: string): Promise<string[]>;
  /** Stops the server (its data kept), as an outage would. */
  stop(): Promise<void>;
  /** Starts it again on the same ports and data. */
  start(): Promise<void>;
  close(): Promise<void>;
}

const SCHEMAS = [
  '/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql',
  '/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql',
];

/** Debian's `pdns-server`, `pdns-backend-sqlite3` and `sqlite3` (which makes its database). */
export const powerDnsInstalled = () =>
  existsSync('/usr/sbin/pdns_server') &&
  SCHEMAS.some((path) => existsSync(path)) &&
  ['/usr/bin/sqlite3', '/bin/sqlite3'].some((path) => existsSync(path));

export async function startPowerDns(
  options: { dnsUpdate?: boolean; transfers?: boolean } = {},
): Promise<PowerDns> {
  const dir = mkdtempSync(join(tmpdir(), 'cloudsvc-pdns-'));
  const database = join(dir, 'pdns.sqlite3');
  const schema = SCHEMAS.find((path) => existsSync(path))!;
  execFileSync('sqlite3', [database, `.read ${schema}`]);
  const apiKey = randomBytes(16).toString('hex');
  const [dnsPort, apiPort] = [await freePort(), await freePort()];
  const endpoint = `http://127.0.0.1:${apiPort}`;
  const args = [
    `--config-dir=${dir}`,
    `--socket-dir=${dir}`,
    '--local-address=127.0.0.1',
    `--local-port=${dnsPort}`,
    '--api=yes',
    `--api-key=${apiKey}`,
    '--webserver=yes',
    '--webserver-address=127.0.0.1',
    `--webserver-port=${apiPort}`,
    '--webserver-allow-from=127.0.0.1',
    '--launch=gsqlite3',
    `--gsqlite3-database=${database}`,
    '--daemon=no',
    '--guardian=no',
    '--disable-syslog',
    // No internet here: no security poll.
    '--security-poll-suffix=',
    '--default-soa-content=ns1.example.net. hostmaster.@ 0 10800 3600 604800 3600',
    // Answers straight from the database, so a change reads back at once.
    '--query-cache-ttl=0',
    '--cache-ttl=0',
    '--negquery-cache-ttl=0',
    '--zone-metadata-cache-ttl=0',
    '--loglevel=4',
    // RFC 2136 updates from loopback, each zone's signed by the keys its metadata names.
    ...(options.dnsUpdate ? ['--dnsupdate=yes', '--allow-dnsupdate-from=127.0.0.0/8'] : []),
    // Zone transfers to loopback, each zone's signed by the keys its TSIG-ALLOW-AXFR names.
    ...(options.transfers ? ['--disable-axfr=no', '--allow-axfr-ips=127.0.0.0/8'] : []),
  ];
  let child: ChildProcess | undefined;
  const output: string[] = [];
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${endpoint}/api/v1/servers/localhost${path}`, {
      ...init,
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
    });

  const server = {
    endpoint,
    apiKey,
    dnsPort,
    startedInMs: 0,
    async start() {
      const began = performance.now();
      child = spawn('/usr/sbin/pdns_server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout?.on('data', (chunk) => output.push(String(chunk)));
      child.stderr?.on('data', (chunk) => output.push(String(chunk)));
      await eventually(async () => (await api('')).ok, 20_000, 'PowerDNS to answer').catch((error: Error) => {
        throw new Error(`${error.message}; output:\n${output.join('')}`);
      });
      server.startedInMs = Math.round(performance.now() - began);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    async createZone(zone: string) {
      const res = await api('/zones', {
        method: 'POST',
        body: JSON.stringify({ name: zone, kind: 'Native', nameservers: ['ns1.example.net.'] }),
      });
      if (res.status !== 201) throw new Error(`zone ${zone}: ${res.status} ${await res.text()}`);
    },
    async allowUpdates(zone: string, keyName: string) {
      const secret = randomBytes(32).toString('base64');
      const key = await api('/tsigkeys', {
        method: 'POST',
        body: JSON.stringify({ name: keyName, algorithm: 'hmac-sha256', key: secret }),
      });
      if (key.status !== 201) throw new Error(`TSIG key ${keyName}: ${key.status} ${await key.text()}`);
      const meta = await api(`/zones/${zone}/metadata`, {
        method: 'POST',
        body: JSON.stringify({ kind: 'TSIG-ALLOW-DNSUPDATE', metadata: [keyName] }),
      });
      if (meta.status !== 201 && meta.status !== 200)
        throw new Error(`zone ${zone} metadata: ${meta.status} ${await meta.text()}`);
      return secret;
    },
    async setMeta(zone: string, kind: string, values: string[]) {
      // Into its database, as `pdnsutil set-meta` writes it: the API refuses the TSIG-ALLOW-* kinds.
      const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;
      const domain = `(select id from domains where name = ${quoted(zone.replace(/\.$/, ''))})`;
      execFileSync('sqlite3', [
        database,
        [
          `delete from domainmetadata where domain_id = ${domain} and kind = ${quoted(kind)};`,
          ...values.map(
            (v) =>
              `insert into domainmetadata (domain_id, kind, content) values (${domain}, ${quoted(kind)}, ${quoted(v)});`,
          ),
        ].join(' '),
      ]);
    },
    async putPtr(zone: string, name: string, content: string) {
      const rrsets = [
        { name, type: 'PTR', ttl: 3600, changetype: 'REPLACE', records: [{ content, disabled: false }] },
      ];
      const res = await api(`/zones/${zone}`, { method: 'PATCH', body: JSON.stringify({ rrsets }) });
      if (res.status !== 204) throw new Error(`PTR ${name}: ${res.status} ${await res.text()}`);
    },
    async resolvePtr(address: string) {
      const resolver = new Resolver({ timeout: 2000, tries: 1 });
      resolver.setServers([`127.0.0.1:${dnsPort}`]);
      try {
        return (await resolver.reverse(address)).sort();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
        throw error;
      }
    },
    async close() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
