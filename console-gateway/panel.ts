import { setTimeout as sleep } from 'node:timers/promises';

/** What `validate` grants: the session to relay, and the token its agent will present. */
export interface Grant {
  readonly session: string;
  readonly instance: string;
  readonly kind: string;
  readonly expires_at: string;
  readonly stream_token: string;
}

export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(`the panel refused: ${status} ${code ?? ''}`);
  }
}

/**
 * The panel's console internal API, as the gateway calls it: its credential on every request, a
 * 429 waited out (Retry-After), anything else refused at once.
 */
export class PanelClient {
  constructor(
    private readonly baseUrl: string,
    private readonly credential: string,
  ) {}

  async #call<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.baseUrl}/api/application/cloudsvc/console/internal/${route}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.credential}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const parsed = (await res.json().catch(() => undefined)) as { errors?: { code: string }[] } | undefined;
      if (res.ok) return parsed as T;
      if (res.status === 429 && attempt < 3) {
        await sleep(Number(res.headers.get('retry-after') ?? '1') * 1000);
        continue;
      }
      throw new Refused(res.status, parsed?.errors?.[0]?.code);
    }
  }

  async validate(connectToken: string): Promise<Grant> {
    const answer = await this.#call<{ attributes: Grant }>('POST', 'validate', {
      connect_token: connectToken,
    });
    return answer.attributes;
  }

  async sessionState(session: string, state: 'connected' | 'disconnected'): Promise<void> {
    await this.#call('POST', 'session-state', { session, state });
  }

  /** Alive, holding `sessions`: the answer names those of them that have ended. */
  async heartbeat(
    relayUrl: string,
    sessions: readonly string[],
  ): Promise<{ session: string; reason: string }[]> {
    const answer = await this.#call<{
      attributes: { ended_sessions: { session: string; reason: string }[] };
    }>('POST', 'heartbeat', {
      relay_url: relayUrl,
      sessions,
    });
    return answer.attributes.ended_sessions;
  }

  async revocations(cursor?: string) {
    return this.#call<{ data: { session: string; reason: string }[]; cursor: string }>(
      'GET',
      `revocations${cursor === undefined ? '' : `?cursor=${cursor}`}`,
    );
  }
}
