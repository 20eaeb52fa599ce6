import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../clients/agent.js';

import type { Logger } from '../platform/logger.js';
import { injectTraceParent } from '../platform/tracing.js';

export class CredentialRefused extends Error {
  constructor() {
    super('the panel refused the agent credential (revoked or unknown); enroll again with a new token');
  }
}

export class PanelRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`the panel refused the request with ${status}: ${JSON.stringify(body)}`);
  }
}

/** The Agent API, typed by the client generated from its document (`npm run clients`). */
export type AgentApi = Client<paths>;

const RETRY_START_MS = 250;
const RETRY_MAX_MS = 10_000;

/**
 * HTTP to the Agent API. Transport failures, 429 and 5xx are retried with capped exponential
 * backoff for as long as it takes (the panel may be restarting); 401 and other 4xx are final, so
 * every answer `api` returns is a success.
 */
export class PanelClient {
  credential: string | undefined;
  readonly api: AgentApi;

  constructor(
    baseUrl: string,
    private readonly logger: Logger,
    private readonly stopping: AbortSignal,
  ) {
    this.api = createClient<paths>({
      baseUrl: `${baseUrl}/api/cloudsvc/agent`,
      fetch: (request) => this.#send(request),
    });
  }

  async #send(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    let delay = RETRY_START_MS;
    for (;;) {
      try {
        const attempt = request.clone();
        if (this.credential) attempt.headers.set('Authorization', `Bearer ${this.credential}`);
        injectTraceParent(attempt.headers);
        const res = await fetch(attempt, { signal: this.stopping });
        if (res.status === 401 && this.credential) throw new CredentialRefused();
        if (res.status < 400) return res;
        if (res.status !== 429 && res.status < 500) {
          throw new PanelRefused(res.status, await res.json().catch(() => undefined));
        }
        await res.body?.cancel();
        const retryAfter = Number(res.headers.get('retry-after'));
        if (retryAfter > 0) delay = Math.max(delay, retryAfter * 1000);
        this.logger.warn('panel answered with an error; retrying', {
          path,
          status: res.status,
          delay_ms: delay,
        });
      } catch (error) {
        if (error instanceof CredentialRefused || error instanceof PanelRefused || this.stopping.aborted)
          throw error;
        this.logger.warn('panel unreachable; retrying', {
          path,
          error: (error as Error).message,
          delay_ms: delay,
        });
      }
      await sleep(delay, this.stopping);
      delay = Math.min(delay * 2, RETRY_MAX_MS);
    }
  }
}

/** Waits `ms`, or until `signal` aborts; at once if it already has (it will not fire again). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
