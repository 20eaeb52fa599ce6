import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One POST the receiver took, as it came, and whether its signature verified. */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
  readonly status: number;
  readonly at: number;
}

/**
 * A webhook receiver the test owns: an HTTP server on loopback that verifies every delivery with
 * the `standardwebhooks` library (as a customer's would), answers what the test tells it to, and
 * takes each `webhook-id` once. It can go down (its port closed) and come back on the same port.
 */
export async function startWebhookReceiver() {
  const received: Received[] = [];
  const accepted = new Map<string, unknown>();
  let secrets: string[] = [];
  /** What the next requests are answered: a status each, then 204. */
  const answers: number[] = [];
  /** What every request is answered while set (a receiver that keeps failing). */
  let always: number | undefined;
  /** `webhook-id`s answered 503 whatever else is set (one event's receiver that keeps failing). */
  const refused = new Set<string>();
  /** The body of every answer while set (a receiver that talks back). */
  let replyBody: string | undefined;
  let server: Server | undefined;
  let port = 0;

  const verify = (raw: string, headers: IncomingHttpHeaders) => {
    const flat = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
    const errors: unknown[] = [];
    for (const secret of secrets) {
      try {
        return new Webhook(secret).verify(raw, flat);
      } catch (error) {
        errors.push(error);
      }
    }
    throw new Error(`no secret verified the delivery: ${errors.map(String).join('; ')}`);
  };

  async function listen() {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let status = refused.has(String(request.headers['webhook-id']))
          ? 503
          : (always ?? answers.shift() ?? 204);
        try {
          const payload = verify(raw, request.headers);
          const id = String(request.headers['webhook-id']);
          if (status < 300 && !accepted.has(id)) accepted.set(id, payload);
        } catch {
          status = 401;
        }
        received.push({ headers: request.headers, raw, status, at: Date.now() });
        response
          .writeHead(status, { 'content-type': 'text/plain' })
          .end(replyBody ?? (status < 300 ? '' : `answered ${status}`));
      });
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  }
  await listen();

  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    /** Every POST that came, in order, verified or not (`status` 401 when it did not verify). */
    received,
    /** The payload of each `webhook-id` taken, in the order first taken. */
    accepted,
    /** The secrets a delivery may be signed with (a rotation adds one). */
    trust(...keys: string[]) {
      secrets = keys;
    },
    /** Answers the next requests with these statuses. */
    answerNext(...statuses: number[]) {
      answers.push(...statuses);
    },
    /** Answers with this body until called without one. */
    replyWith(body?: string) {
      replyBody = body;
    },
    /** Answers these events 503, every time. */
    refuse(...ids: string[]) {
      for (const id of ids) refused.add(id);
    },
    /** Answers every request with `status` until called without one. */
    answerAll(status?: number) {
      always = status;
    },
    async down() {
      const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
      server!.closeAllConnections();
      await closed;
    },
    up: listen,
    async close() {
      if (!server?.listening) return;
      const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
