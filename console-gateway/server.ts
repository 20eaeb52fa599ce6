import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocketServer } from 'ws';
import type { Logger } from '../platform/logger.js';
import type { GatewayConfig } from './config.js';
import { followPanel } from './follow.js';
import { PanelClient, Refused } from './panel.js';
import { type Relay, Relays, tell } from './relays.js';

/** The longest a browser may take to send its connect token, and the largest frame taken. */
const TOKEN_WAIT_MS = 10_000;
const MAX_FRAME = 64 * 1024;

/**
 * The reference console gateway: browsers connect at `/connect` and send their session's connect
 * token as their first (text) message; the gateway redeems it with the panel, whose answer has the
 * instance's agent open a stream out to `/relay`, presenting the stream token of the grant. The two
 * are paired and the console's bytes relayed (binary frames); the browser hears the session's news
 * as text frames. The panel's endings feed and heartbeats cut what must end.
 */
export async function startGateway(config: GatewayConfig, logger: Logger) {
  const panel = new PanelClient(config.GATEWAY_PANEL_URL, config.GATEWAY_CREDENTIAL);
  const relays = new Relays();
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME });
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://gateway').pathname;
    if (path === '/connect') return sockets.handleUpgrade(req, socket, head, (ws) => browserArrives(ws));
    if (path === '/relay') return agentArrives(req, socket, head);
    socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
  });

  /** Lets go of the session; tells the panel when the gateway, not the panel, ended it. */
  const cut = (sessionId: string, reason: string, report: boolean) => {
    if (!relays.release(sessionId, reason) || !report) return;
    panel.sessionState(sessionId, 'disconnected').catch((error: Error) => {
      if (!(error instanceof Refused)) logger.warn('could not report a session disconnected', { error });
    });
  };

  function browserArrives(browser: import('ws').WebSocket): void {
    const wait = setTimeout(() => browser.close(4400, 'no connect token'), TOKEN_WAIT_MS);
    browser.once('message', async (data: RawData, isBinary: boolean) => {
      clearTimeout(wait);
      let token = '';
      try {
        token = isBinary
          ? ''
          : String((JSON.parse(data.toString()) as { connect_token?: unknown }).connect_token);
      } catch {}
      try {
        const grant = await panel.validate(token);
        if (browser.readyState !== browser.OPEN) return cut(grant.session, 'disconnected', true);
        const relay: Relay = { grant, browser, agent: undefined, timers: [] };
        relays.hold(relay);
        relay.timers.push(
          setTimeout(() => cut(grant.session, 'unreachable', true), config.GATEWAY_STREAM_WAIT_MS),
          setTimeout(() => cut(grant.session, 'expired', false), Date.parse(grant.expires_at) - Date.now()),
        );
        browser.on('close', () => cut(grant.session, 'disconnected', true));
        browser.on('message', (bytes: RawData, binary: boolean) => {
          if (binary) relay.agent?.send(bytes, { binary: true });
        });
        tell(browser, { type: 'validated', session: grant.session, expires_at: grant.expires_at });
      } catch (error) {
        tell(browser, { type: 'ended', reason: 'refused' });
        browser.close(4401, 'session refused');
        if (!(error instanceof Refused)) logger.warn('could not validate a connect token', { error });
      }
    });
  }

  function agentArrives(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const relay = relays.awaiting(String(req.headers['x-console-session'] ?? ''), token);
    if (!relay) return void socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
    sockets.handleUpgrade(req, socket, head, (agent) => {
      const sessionId = relay.grant.session;
      relay.agent = agent;
      clearTimeout(relay.timers.shift());
      agent.on('message', (bytes: RawData, binary: boolean) => {
        if (binary) relay.browser.send(bytes, { binary: true });
      });
      agent.on('close', () => cut(sessionId, 'disconnected', true));
      tell(relay.browser, { type: 'connected' });
      panel.sessionState(sessionId, 'connected').catch(() => cut(sessionId, 'ended', false));
    });
  }

  await new Promise<void>((resolve) => server.listen(config.GATEWAY_PORT, config.GATEWAY_HOST, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `ws://${config.GATEWAY_HOST}:${port}/connect`;
  const relayUrl = config.GATEWAY_RELAY_URL ?? `ws://${config.GATEWAY_HOST}:${port}/relay`;
  const follow = await followPanel({ config, panel, relays, relayUrl, logger, cut });
  logger.info('console gateway listening', { url, relay_url: relayUrl });
  return {
    url,
    relayUrl,
    relays,
    async close(): Promise<void> {
      follow.stop();
      for (const id of relays.ids()) cut(id, 'gateway_stopping', true);
      sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
