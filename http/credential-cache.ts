import type { Database } from '../db/database.js';
import {
  type ActiveCredential,
  findActiveCredential,
} from '../db/repositories/accounts/active-credentials.js';
import { type CredentialType, hashToken } from '../domain/credentials.js';

/** Types whose lookups may be cached. Agent and gateway credentials are always read fresh, so
 * revoke-agent takes effect on the very next request. */
const CACHEABLE: ReadonlySet<CredentialType> = new Set(['client', 'application']);
const MAX_ENTRIES = 10_000;

/**
 * Resolves presented tokens to live credentials (looked up by their hash). Client and application
 * keys are kept for `ttlMs` so the hot path does one query, not two. The bound: a key revoked
 * (keys:revoke), or whose user stops being an administrator, is refused everywhere at most `ttlMs`
 * after the change. An entry's time counts from before its lookup was sent, as the database may
 * have read the row at any moment after that, and on the monotonic clock, which a change of the
 * wall clock cannot stretch.
 */
export class CredentialCache {
  readonly #entries = new Map<string, { credential: ActiveCredential; until: number }>();

  constructor(
    private readonly db: Database,
    private readonly ttlMs: number,
  ) {}

  async resolve(token: string): Promise<ActiveCredential | undefined> {
    // Keyed by the token itself, so a hit costs no hashing; entries live for seconds only.
    const cached = this.#entries.get(token);
    if (cached && cached.until > performance.now()) return cached.credential;
    if (cached) this.#entries.delete(token);

    const lookedUpAt = performance.now();
    const credential = await findActiveCredential(this.db, hashToken(token));
    if (credential && this.ttlMs > 0 && CACHEABLE.has(credential.type)) {
      if (this.#entries.size >= MAX_ENTRIES) {
        // Maps iterate in insertion order: the first key is the oldest entry.
        this.#entries.delete(this.#entries.keys().next().value as string);
      }
      this.#entries.set(token, { credential, until: lookedUpAt + this.ttlMs });
    }
    return credential;
  }

  /**
   * Drops the cached lookups of the credentials `which` picks (a user disabled or demoted, a key
   * revoked through this process), so its next requests read them afresh. Other processes keep
   * theirs until their TTL ends.
   */
  forget(which: (credential: ActiveCredential) => boolean): void {
    for (const [token, entry] of this.#entries) if (which(entry.credential)) this.#entries.delete(token);
  }
}
