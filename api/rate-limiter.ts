/**
 * A fixed-window counter per key (an IP address, a user) held in this process. Limits here
 * protect one API process; behind several replicas each enforces its own share.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one hit; returns the seconds to wait when the key is over its limit. */
  hit(key: string, now = Date.now()): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.#windows.size > 50_000) this.#sweep(now);
      window = { count: 0, resetAt: now + this.windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= this.limit) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
  }
}
