import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An external provider for tests: an HTTP service that accepts the bearer tokens it is told to,
 * answers `GET /` and `GET /inventory`, and records every Authorization it was sent. A hostile one
 * echoes what it was sent in its error bodies and in a redirect, as a careless provider might.
 */
export interface ProviderServer {
  readonly url: string;
  /** The tokens the provider accepts now; change it to revoke one. */
  readonly accepted: Set<string>;
  /** Every bearer token received, in order. */
  readonly received: string[];
  /** Items its inventory lists. */
  inventory: number;
  /** Echo the token it was sent in every body it answers, its inventory's items included. */
  hostile: boolean;
  /** Answer `GET /` with a redirect to another address, the token in its query. */
  redirect: boolean;
  /** Hold each answer this long. */
  delayMs: number;
  close(): Promise<void>;
}

export async function startProviderServer(): Promise<ProviderServer> {
  const server = createServer((req, res) => void answer(state, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: ProviderServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    accepted: new Set(),
    received: [],
    inventory: 3,
    hostile: false,
    redirect: false,
    delayMs: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}

async function answer(state: ProviderServer, req: IncomingMessage, res: ServerResponse) {
  if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
  const authorization = req.headers.authorization ?? '';
  const token = authorization.replace(/^Bearer /, '');
  state.received.push(token);
  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const echo = state.hostile ? { you_sent: authorization, token } : {};
  if (!state.accepted.has(token)) return send(401, { error: 'refused', ...echo });
  if (req.url === '/api/inventory')
    return send(200, {
      data: Array.from({ length: state.inventory }, (_, i) => ({
        id: state.hostile ? `${token}-${i}` : `item-${i}`,
      })),
      ...echo,
    });
  if (state.redirect) return send(302, echo, { Location: `http://127.0.0.1:9/?token=${token}` });
  return send(200, { ok: true, ...echo });
}
