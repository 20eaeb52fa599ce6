import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { mayDeliverTo } from '../domain/events/endpoints.js';
import { checkedLookup, isAddressRefused } from './webhook-lookup.js';

/** The most of a receiver's answer kept in the delivery log. */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** The most of an answer read at all: a receiver that sends more is cut off, not waited for. */
const RESPONSE_READ_BYTES = 64 * 1024;

export interface WebhookPost {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly allowedNetworks: readonly string[];
  readonly timeoutMs: number;
}

/** What one POST came to: the receiver's status and first bytes, or a customer-safe reason it failed. */
export type PostOutcome =
  | { readonly ok: true; readonly statusCode: number; readonly excerpt: string }
  | { readonly ok: false; readonly error: string };

/** The answer's first bytes, and whether it was read to its end (or as far as it is read at all). */
function readExcerpt(response: IncomingMessage): Promise<{ excerpt: string; whole: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let read = 0;
    // PostgreSQL text holds no NUL: a receiver's NUL bytes are dropped, not allowed to fail the log.
    const done = (whole: boolean) =>
      resolve({
        excerpt: Buffer.concat(chunks)
          .subarray(0, RESPONSE_EXCERPT_BYTES)
          .toString('utf8')
          .replaceAll('\u0000', ''),
        whole,
      });
    response.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read <= RESPONSE_EXCERPT_BYTES + chunk.length) chunks.push(chunk);
      if (read > RESPONSE_READ_BYTES) {
        response.destroy();
        done(true);
      }
    });
    response.on('end', () => done(true));
    response.on('error', () => done(response.complete));
    response.on('close', () => done(response.complete));
  });
}

/**
 * One POST of a webhook, redirects not followed (a redirect is an answer, and not a 2xx). The
 * whole exchange, connect to the last byte read, is bounded by `timeoutMs`: an answer whose body
 * had not ended by then fails, whatever its status, as does one the receiver cut off. A failure
 * names how far it got: the lookup, the connection, the TLS handshake, the answer.
 */
export function postWebhook(post: WebhookPost): Promise<PostOutcome> {
  const url = new URL(post.url);
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !mayDeliverTo(literal, post.allowedNetworks))
    return Promise.resolve({ ok: false, error: 'The endpoint’s address is not one deliveries may go to.' });
  const tls = url.protocol === 'https:';
  return new Promise((resolve) => {
    const signal = AbortSignal.timeout(post.timeoutMs);
    let stage: 'connecting' | 'handshake' | 'connected' = 'connecting';
    /** The status of an answer whose headers came. */
    let answered: number | undefined;
    const fail = (error: string) => resolve({ ok: false, error });
    const request = (tls ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        headers: { ...post.headers, 'content-length': Buffer.byteLength(post.body).toString() },
        lookup: checkedLookup(post.allowedNetworks),
        signal,
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        answered = statusCode;
        readExcerpt(response).then(({ excerpt, whole }) => {
          if (whole) resolve({ ok: true, statusCode, excerpt });
          else if (signal.aborted)
            fail(`The answer (${statusCode}) did not end within ${post.timeoutMs} ms.`);
          else fail(`The answer (${statusCode}) was cut off before its end.`);
        });
      },
    );
    request.on('socket', (socket) => {
      if (request.reusedSocket) stage = 'connected';
      else socket.once('connect', () => (stage = tls ? 'handshake' : 'connected'));
      if (tls) socket.once('secureConnect', () => (stage = 'connected'));
    });
    request.on('error', (error: Error & { code?: string }) => {
      const code = error.code ?? 'error';
      if (isAddressRefused(error))
        fail('The endpoint’s host resolves to an address deliveries may not go to.');
      else if (signal.aborted && answered !== undefined)
        fail(`The answer (${answered}) did not end within ${post.timeoutMs} ms.`);
      else if (signal.aborted) fail(`No answer within ${post.timeoutMs} ms.`);
      else if (answered !== undefined) fail(`The answer (${answered}) was cut off before its end.`);
      // A certificate not trusted, expired or for another name, or a server that ends the handshake.
      else if (stage === 'handshake') fail(`The TLS handshake failed (${code}).`);
      else fail(`The connection failed (${code}).`);
    });
    request.end(post.body);
  });
}
