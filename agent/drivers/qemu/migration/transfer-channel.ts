import { timingSafeEqual } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { promises as streams } from 'node:stream';
import type { IncomingPorts } from '../guests/state.js';
import { IncomingPortsBody, type PasswordHandoff, type SetupHandoff } from './transfer-bodies.js';

/** The source's side: what it offers for one migration, found by the secret of its endpoint. */
export interface ChannelHandlers {
  /** The disk as it stands now (a point-in-time copy if the guest runs), with its checksum. */
  disk(migrationId: string, secret: string): Promise<{ path: string; checksum: string } | undefined>;
  /** A volume offered with it, as the disk. */
  volume(
    migrationId: string,
    secret: string,
    volumeId: string,
  ): Promise<{ path: string; checksum: string } | undefined>;
  password(migrationId: string, secret: string): Promise<PasswordHandoff | undefined>;
  /** The guest's image, addresses and seed (setup-handoff.ts). */
  setup(migrationId: string, secret: string): Promise<SetupHandoff | undefined>;
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
    const match =
      /^\/migrations\/([0-9a-f-]{36})\/([0-9a-f]{64})\/(disk|incoming|password|setup|volumes\/[0-9a-f-]{36})$/.exec(
        url,
      );
    if (!match) return void res.writeHead(404).end();
    const [, migrationId, secret, what] = match as unknown as [string, string, string, string];
    const volumeId = what.startsWith('volumes/') ? what.slice('volumes/'.length) : undefined;
    if ((what === 'disk' || volumeId) && method === 'GET') {
      const disk = volumeId
        ? await this.handlers.volume(migrationId, secret, volumeId)
        : await this.handlers.disk(migrationId, secret);
      if (!disk) return void res.writeHead(403).end();
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(statSync(disk.path).size),
        'x-checksum': disk.checksum,
      });
      await streams.pipeline(createReadStream(disk.path), res);
      return;
    }
    if ((what === 'password' || what === 'setup') && method === 'GET') {
      const handoff = await this.handlers[what](migrationId, secret);
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
