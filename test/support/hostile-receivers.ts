import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a receiver does with a webhook POST, by the path it was registered with. */
type Behaviour = (response: ServerResponse) => void;

/**
 * Receivers a customer could point an endpoint at to hurt the plane (docs/events.md "Delivery"),
 * owned by the test: one HTTP server that redirects (`/redirect?to=…&status=…`), never answers
 * (`/hang`) or sends its body a byte at a time for ever (`/dribble`); an https server with a
 * self-signed certificate (made by `openssl` for 127.0.0.1); a TLS port that closes every
 * connection as soon as the client's hello arrives; and, on 127.0.0.2, a landing server that
 * records any request that reaches it (where a followed redirect would land).
 */
export async function startHostileReceivers() {
  const requests: { path: string; webhookId: string }[] = [];
  const sockets = new Set<Socket>();
  const behaviours: Record<string, (url: URL) => Behaviour> = {
    '/redirect': (url) => (response) =>
      response
        .writeHead(Number(url.searchParams.get('status') ?? 302), {
          location: url.searchParams.get('to') ?? '/',
          'content-type': 'text/plain',
        })
        .end('moved'),
    '/hang': () => () => {},
    '/dribble': () => (response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => response.write('.'), 100);
      response.on('close', () => clearInterval(drip));
    },
  };
  const http = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://receiver');
    requests.push({ path: url.pathname, webhookId: String(request.headers['webhook-id']) });
    request.resume();
    request.on('end', () => (behaviours[url.pathname] ?? (() => () => response.end()))(url)(response));
  });
  const landed: string[] = [];
  const landing = createServer((request, response) => {
    landed.push(request.url ?? '/');
    request.resume();
    response.end();
  });

  const folder = mkdtempSync(join(tmpdir(), 'hostile-tls-'));
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', join(folder, 'key.pem'), '-out', join(folder, 'cert.pem'), '-days', '1'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  let hellos = 0;
  const selfSigned = createHttpsServer(
    { key: readFileSync(join(folder, 'key.pem')), cert: readFileSync(join(folder, 'cert.pem')) },
    (request, response) => {
      // Reached only by a client that took the certificate: the plane must not.
      requests.push({ path: '/self-signed', webhookId: String(request.headers['webhook-id']) });
      request.resume();
      response.end();
    },
  );
  const cutOff = createTcpServer((socket) => {
    socket.once('data', () => {
      hellos++;
      socket.destroy();
    });
  });

  const servers: Server[] = [http, landing, selfSigned, cutOff];
  for (const server of servers)
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
  const listen = async (server: Server, host = '127.0.0.1') => {
    server.listen(0, host);
    await once(server, 'listening');
    return (server.address() as AddressInfo).port;
  };
  const httpPort = await listen(http);
  const landingPort = await listen(landing, '127.0.0.2');
  const selfSignedPort = await listen(selfSigned);
  const cutOffPort = await listen(cutOff);

  return {
    /** A path of the HTTP server, e.g. `/hang`, `/redirect?to=…`. */
    url: (path: string) => `http://127.0.0.1:${httpPort}${path}`,
    /** Where a redirect to a loopback address outside a 127.0.0.1/32 allowance leads. */
    landingUrl: `http://127.0.0.2:${landingPort}/landed`,
    selfSignedUrl: `https://127.0.0.1:${selfSignedPort}/hook`,
    cutOffUrl: `https://127.0.0.1:${cutOffPort}/hook`,
    /** Every POST the HTTP and https servers took, in order. */
    requests,
    /** The paths of every request that reached the landing server. */
    landed,
    /** Client hellos the cut-off port took (and closed the connection on). */
    hellos: () => hellos,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((closed) => server.close(closed))));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export type HostileReceivers = Awaited<ReturnType<typeof startHostileReceivers>>;
