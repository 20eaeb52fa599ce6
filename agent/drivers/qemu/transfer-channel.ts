import { createHash, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { promises as streams } from 'node:stream';
import { z } from 'zod';
import { DriverFailure } from '../driver.js';

/** What the target tells the source once its guest waits for a live migration. */
export interface IncomingPorts {
  readonly host: string;
  readonly migration_port: number;
  readonly nbd_port: number;
}

const port = z.number().int().min(1).max(65_535);
const IncomingPortsBody = z.object({
  host: z.string().min(1).max(255),
  migration_port: port,
  nbd_port: port,
});

const cryptHash = z
  .string()
  .max(256)
  .regex(/^\$6\$[a-zA-Z0-9./$]+$/);
/**
 * What the guest's root password needs besides its disk, for the boots it has not had yet: the
 * first password's hash of a disk never booted, a reset made while it was stopped, and the key of
 * its hashes' salts. Hashes only: the password itself is on no host.
 */
export const PasswordHandoffBody = z.object({
  first_boot_hash: cryptHash.nullable(),
  pending_reset: z.object({ id: z.string().regex(/^[0-9a-f]{32}$/), hash: cryptHash }).nullable(),
  password_key: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
});
export type PasswordHandoff = z.infer<typeof PasswordHandoffBody>;

/** The source's side: what it offers for one migration, found by the secret of its endpoint. */
export interface ChannelHandlers {
  /** The disk as it stands now (a point-in-time copy if the guest runs), with its checksum. */
  disk(migrationId: string, secret: string): Promise<{ path: string; checksum: string } | undefined>;
  password(migrationId: string, secret: string): Promise<PasswordHandoff | undefined>;
  incoming(migrationId: string, secret: string, ports: IncomingPorts): Promise<boolean>;
}

/**
 * The agent's own listener for migrations: the target pulls the disk from it and tells it where
 * its waiting guest listens. Its address reaches the target only inside the `endpoint` of
 * `disk.export`, which the panel hands to the agent that redeems the migration's transfer token;
 * every request must carry the migration's secret from that endpoint.
 */
export class TransferChannel {
  #server: Server | undefined;
  #port: number | undefined;

  constructor(
    private readonly host: string,
    private readonly handlers: ChannelHandlers,
  ) {}

  /** Listens (on `preferredPort` when free, so endpoints handed out before a restart still work). */
  async open(preferredPort?: number): Promise<number> {
    if (this.#port !== undefined) return this.#port;
    const server = createServer((req, res) => {
      void this.#handle(req.method ?? 'GET', req.url ?? '/', req, res).catch((error: Error) => {
        if (!res.headersSent) res.writeHead(500).end(error.message);
        else res.destroy();
      });
    });
    const listen = (port: number) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, this.host, () => {
          server.off('error', reject);
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      });
    this.#port = preferredPort ? await listen(preferredPort).catch(() => listen(0)) : await listen(0);
    server.unref();
    this.#server = server;
    return this.#port;
  }

  endpoint(migrationId: string, secret: string): string {
    return `http://${this.host}:${this.#port}/migrations/${migrationId}/${secret}`;
  }

  close(): void {
    this.#server?.close();
  }

  async #handle(
    method: string,
    url: string,
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ): Promise<void> {
    const match = /^\/migrations\/([0-9a-f-]{36})\/([0-9a-f]{64})\/(disk|incoming|password)$/.exec(url);
    if (!match) return void res.writeHead(404).end();
    const [, migrationId, secret, what] = match as unknown as [string, string, string, string];
    if (what === 'disk' && method === 'GET') {
      const disk = await this.handlers.disk(migrationId, secret);
      if (!disk) return void res.writeHead(403).end();
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(statSync(disk.path).size),
        'x-checksum': disk.checksum,
      });
      await streams.pipeline(createReadStream(disk.path), res);
      return;
    }
    if (what === 'password' && method === 'GET') {
      const handoff = await this.handlers.password(migrationId, secret);
      if (!handoff) return void res.writeHead(403).end();
      return void res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(handoff));
    }
    if (what === 'incoming' && method === 'POST') {
      let body = '';
      for await (const chunk of req) {
        body += (chunk as Buffer).toString();
        // Three small fields: anything longer is not a target speaking.
        if (body.length > 1024) return void res.writeHead(413).end();
      }
      let ports: IncomingPorts;
      try {
        ports = IncomingPortsBody.parse(JSON.parse(body));
      } catch {
        return void res.writeHead(400).end();
      }
      const accepted = await this.handlers.incoming(migrationId, secret, ports);
      return void res.writeHead(accepted ? 204 : 403).end();
    }
    res.writeHead(405).end();
  }
}

export const secretMatches = (expected: string, given: string) =>
  expected.length === given.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given));

/** The parts of a source's endpoint, refused if it is not one of ours. */
function parseEndpoint(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new DriverFailure('TRANSFER_ENDPOINT_UNKNOWN', 'the sender is not a QEMU hypervisor', false);
  }
  if (url.protocol !== 'http:' || !/^\/migrations\/[0-9a-f-]{36}\/[0-9a-f]{64}$/.test(url.pathname))
    throw new DriverFailure('TRANSFER_ENDPOINT_UNKNOWN', 'the sender is not a QEMU hypervisor', false);
  return url;
}

/**
 * Pulls the disk from the source into `target` (by way of a partial file), hashing it on the way;
 * refused unless what arrived is what the source says it sent. Returns the checksum.
 */
export async function pullDisk(endpoint: string, target: string, signal: AbortSignal): Promise<string> {
  const url = parseEndpoint(endpoint);
  const partial = `${target}.partial`;
  const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
    const req = request(`${url.href}/disk`, { method: 'GET', signal }, resolve);
    req.once('error', reject);
    req.end();
  }).catch((error: Error) => {
    throw new DriverFailure('TRANSFER_FAILED', `the source did not answer: ${error.message}`, true);
  });
  if (response.statusCode !== 200) {
    response.resume();
    throw new DriverFailure('TRANSFER_REFUSED', `the source answered ${response.statusCode}`, false);
  }
  const announced = String(response.headers['x-checksum'] ?? '');
  const hash = createHash('sha256');
  response.on('data', (chunk: Buffer) => hash.update(chunk));
  try {
    await streams.pipeline(response, createWriteStream(partial), { signal });
  } catch (error) {
    rmSync(partial, { force: true });
    throw new DriverFailure('TRANSFER_FAILED', `the transfer broke off: ${(error as Error).message}`, true);
  }
  const checksum = hash.digest('hex');
  if (checksum !== announced) {
    rmSync(partial, { force: true });
    throw new DriverFailure('DISK_CHECKSUM_MISMATCH', 'the disk arrived different from what was sent', true);
  }
  renameSync(partial, target);
  return checksum;
}

/** Tells the source where the target's waiting guest listens (for `migration.live`). */
export async function announceIncoming(endpoint: string, ports: IncomingPorts): Promise<void> {
  const url = parseEndpoint(endpoint);
  const body = JSON.stringify(ports);
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      `${url.href}/incoming`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('error', reject);
    req.end(body);
  }).catch((error: Error) => {
    throw new DriverFailure('TRANSFER_FAILED', `the source did not answer: ${error.message}`, true);
  });
  if (status !== 204) throw new DriverFailure('TRANSFER_REFUSED', `the source answered ${status}`, false);
}

/**
 * Fetches the guest's password handoff from the source (see PasswordHandoffBody); a source whose
 * agent predates it answers 404, and has nothing to hand over but its disk.
 */
export async function pullPasswordHandoff(endpoint: string, signal: AbortSignal): Promise<PasswordHandoff> {
  const url = parseEndpoint(endpoint);
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${url.href}/password`, { method: 'GET', signal }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.length > 4096) res.destroy(new Error('the answer is too long'));
      });
      res.once('error', reject);
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.once('error', reject);
    req.end();
  }).catch((error: Error) => {
    throw new DriverFailure('TRANSFER_FAILED', `the source did not answer: ${error.message}`, true);
  });
  if (status === 404) return { first_boot_hash: null, pending_reset: null, password_key: null };
  if (status !== 200) throw new DriverFailure('TRANSFER_REFUSED', `the source answered ${status}`, false);
  let parsed: ReturnType<typeof PasswordHandoffBody.safeParse>;
  try {
    parsed = PasswordHandoffBody.safeParse(JSON.parse(body));
  } catch {
    parsed = PasswordHandoffBody.safeParse(undefined);
  }
  if (!parsed.success)
    throw new DriverFailure('TRANSFER_REFUSED', 'the source’s password handoff is malformed', false);
  return parsed.data;
}
