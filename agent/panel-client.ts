import type { Logger } from '../platform/logger.js';

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

const RETRY_START_MS = 250;
const RETRY_MAX_MS = 10_000;

/**
 * HTTP to the Agent API. Transport failures, 429 and 5xx are retried with capped exponential
 * backoff for as long as it takes (the panel may be restarting); 401 and other 4xx are final.
 */
export class PanelClient {
  credential: string | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly logger: Logger,
    private readonly stopping: AbortSignal,
  ) {}

  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }> {
    let delay = RETRY_START_MS;
    for (;;) {
      try {
        const res = await fetch(`${this.baseUrl}/api/cloudsvc/agent${path}`, {
          method,
          headers: {
            ...(this.credential ? { Authorization: `Bearer ${this.credential}` } : {}),
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: this.stopping,
        });
        const parsed = res.status === 204 ? undefined : await res.json().catch(() => undefined);
        if (res.status === 401 && this.credential) throw new CredentialRefused();
        if (res.status < 400) return { status: res.status, body: parsed as T };
        if (res.status !== 429 && res.status < 500) throw new PanelRefused(res.status, parsed);
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

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
