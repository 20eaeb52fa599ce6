import { timingSafeEqual } from 'node:crypto';
import WebSocket from 'ws';
import type { Grant } from './panel.js';

/** One session the gateway holds: the browser, and once it arrives, the agent's stream. */
export interface Relay {
  readonly grant: Grant;
  readonly browser: WebSocket;
  agent: WebSocket | undefined;
  readonly timers: NodeJS.Timeout[];
}

/** A text frame to the browser: the session's news (the console's bytes go as binary frames). */
export const tell = (socket: WebSocket, news: Record<string, unknown>) => {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(news));
};

const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The sessions held, by session id; an agent's stream is matched to one by its stream token. */
export class Relays {
  readonly #held = new Map<string, Relay>();

  get size(): number {
    return this.#held.size;
  }

  ids(): string[] {
    return [...this.#held.keys()];
  }

  get(sessionId: string): Relay | undefined {
    return this.#held.get(sessionId);
  }

  hold(relay: Relay): void {
    this.#held.set(relay.grant.session, relay);
  }

  /** The relay waiting for the agent that presents `streamToken`; undefined for any other. */
  awaiting(sessionId: string, streamToken: string): Relay | undefined {
    const relay = this.#held.get(sessionId);
    if (!relay || relay.agent || !same(relay.grant.stream_token, streamToken)) return undefined;
    return relay;
  }

  /** Lets go of the session: both ends closed, its timers stopped. True if it was held. */
  release(sessionId: string, reason: string): boolean {
    const relay = this.#held.get(sessionId);
    if (!relay) return false;
    this.#held.delete(sessionId);
    for (const timer of relay.timers) clearTimeout(timer);
    tell(relay.browser, { type: 'ended', reason });
    relay.browser.close(4000, reason);
    relay.agent?.close(1000, reason);
    return true;
  }
}
