import { setTimeout as sleep } from 'node:timers/promises';
import createClient, { type Client } from 'openapi-fetch';
import { answered } from '../clients/answered.js';
import type { paths } from '../clients/console-internal.js';

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

/** The Console Internal API, typed by the client generated from its document (`npm run clients`). */
type ConsoleInternalApi = Client<paths>;

/**
 * The panel's console internal API, as the gateway calls it: its credential on every request, a
 * 429 waited out (Retry-After), anything else refused at once (`Refused`), so every answer the
 * client returns is a success.
 */
export class PanelClient {
  readonly #api: ConsoleInternalApi;

  constructor(baseUrl: string, credential: string) {
    this.#api = createClient<paths>({
      baseUrl: `${baseUrl}/api/application/cloudsvc/console/internal`,
      headers: { Authorization: `Bearer ${credential}` },
      fetch: (request) => this.#send(request),
    });
  }

  async #send(request: Request): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(request.clone());
      if (res.ok) return res;
      if (res.status === 429 && attempt < 3) {
        await res.body?.cancel();
        await sleep(Number(res.headers.get('retry-after') ?? '1') * 1000);
        continue;
      }
      const parsed = (await res.json().catch(() => undefined)) as { errors?: { code: string }[] } | undefined;
      throw new Refused(res.status, parsed?.errors?.[0]?.code);
    }
  }

  async validate(connectToken: string): Promise<Grant> {
    return answered(await this.#api.POST('/validate', { body: { connect_token: connectToken } })).attributes;
  }

  async sessionState(session: string, state: 'connected' | 'disconnected'): Promise<void> {
    await this.#api.POST('/session-state', { body: { session, state } });
  }

  /** Alive, holding `sessions`: the answer names those of them that have ended. */
  async heartbeat(
    relayUrl: string,
    sessions: readonly string[],
  ): Promise<{ session: string; reason: string }[]> {
    const answer = answered(
      await this.#api.POST('/heartbeat', { body: { relay_url: relayUrl, sessions: [...sessions] } }),
    );
    return answer.attributes.ended_sessions;
  }

  async revocations(cursor?: string) {
    return answered(await this.#api.GET('/revocations', { params: { query: { cursor } } }));
  }
}
