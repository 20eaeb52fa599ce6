import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { promises as streams } from 'node:stream';
import type { IncomingPorts } from '../guests/state.js';
import { IncomingPortsBody, type PasswordHandoff, type SetupHandoff } from './transfer-bodies.js';
import { channelTls } from './transport.js';

/** The source's side: what it offers for one migration, to a client that proved the move's key. */
export interface ChannelHandlers {
  /** The move's transport key while this agent offers the move; undefined once it does not. */
  keyOf(migrationId: string): string | undefined;
  /** The disk as it stands now (a point-in-time copy if the guest runs), with its checksum. */
  disk(migrationId: string): Promise<{ path: string; checksum: string } | undefined>;
  /** A volume offered with it, as the disk. */
  volume(migrationId: string, volumeId: string): Promise<{ path: string; checksum: string } | undefined>;
  password(migrationId: string): Promise<PasswordHandoff | undefined>;
  /** The guest's image, addresses and seed (setup-handoff.ts). */
  setup(migrationId: string): Promise<SetupHandoff | undefined>;
  incoming(migrationId: string, ports: IncomingPorts): Promise<boolean>;
}

/**
 * The agent's own listener for migrations: the target pulls the disk from it and tells it where
 * its waiting guest listens. Its address reaches the target only inside the `endpoint` of
 * `disk.export`, which the panel hands to the agent that redeems the migration's transfer token.
 * It speaks only TLS 1.3 under a move's transport key (transport.ts): the address is no secret,
 * and a connection is served only for the move whose key it proved.
 */
export class TransferChannel {
  #server: Server | undefined;
  #port: number | undefined;
  /** The move each open connection proved, by its socket. */
  readonly #proven = new WeakMap<object, string>();

  constructor(
    private readonly host: string,
    private readonly handlers: ChannelHandlers,
  ) {}

  /** Listens (on `preferredPort` when free, so endpoints handed out before a restart still work). */
  async open(preferredPort?: number): Promise<number> {
    if (this.#port !== undefined) return this.#port;
    const server = createServer(channelTls(this.handlers.keyOf, this.#proven), (req, res) => {
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

  /** Where the move is offered: an address, which opens nothing without the move's key. */
  endpoint(migrationId: string): string {
    return `https://${this.host}:${this.#port}/migrations/${migrationId}`;
  }

  close(): void {
    this.#server?.close();
  }

  async #handle(method: string, url: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match =
      /^\/migrations\/([0-9a-f-]{36})\/(disk|incoming|password|setup|volumes\/[0-9a-f-]{36})$/.exec(url);
    if (!match) return void res.writeHead(404).end();
    const [, migrationId, what] = match as unknown as [string, string, string];
    // The key of one move opens nothing of another's.
    if (this.#proven.get(req.socket) !== migrationId) return void res.writeHead(403).end();
    const volumeId = what.startsWith('volumes/') ? what.slice('volumes/'.length) : undefined;
    if ((what === 'disk' || volumeId) && method === 'GET') {
      const disk = volumeId
        ? await this.handlers.volume(migrationId, volumeId)
        : await this.handlers.disk(migrationId);
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
      const handoff = await this.handlers[what](migrationId);
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
      const accepted = await this.handlers.incoming(migrationId, ports);
      return void res.writeHead(accepted ? 204 : 403).end();
    }
    res.writeHead(405).end();
  }
}
