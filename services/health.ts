import { pingDatabase } from '../db/database.js';
import { pendingMigrations } from '../db/migrator.js';
import type { ServiceDeps } from './context.js';

/** One readiness check: whether it passed, how long it took, and if not, why in a few words. */
export interface Check {
  readonly ok: boolean;
  readonly ms: number;
  readonly detail?: string;
}

export interface Readiness {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, Check>>;
}

/** A probe passes by returning; it fails by throwing, or by saying what is wrong. */
export type Probe = () => Promise<string | undefined>;

class TimedOut extends Error {}

async function run(name: string, probe: Probe, deps: Pick<ServiceDeps, 'config' | 'logger'>): Promise<Check> {
  const started = performance.now();
  const ms = () => Math.round((performance.now() - started) * 10) / 10;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut()), deps.config.READINESS_TIMEOUT_MS);
  });
  try {
    const wrong = await Promise.race([probe(), limit]);
    return wrong ? { ok: false, ms: ms(), detail: wrong } : { ok: true, ms: ms() };
  } catch (error) {
    // The answer is unauthenticated: the cause (addresses, messages) goes to the log only.
    deps.logger.warn('readiness check failed', { check: name, error });
    return { ok: false, ms: ms(), detail: error instanceof TimedOut ? 'timed out' : 'not reachable' };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Readiness (docs/operations.md "Health"): the database answers, its schema has every migration of
 * this build, and Temporal answers; with the process's own checks added (the worker's). Every check
 * runs at once, each bounded by READINESS_TIMEOUT_MS.
 */
export async function readiness(
  deps: ServiceDeps,
  own: Readonly<Record<string, Probe>> = {},
): Promise<Readiness> {
  const probes: Record<string, Probe> = {
    database: async () => {
      await pingDatabase(deps.db);
      return undefined;
    },
    migrations: async () => {
      const pending = await pendingMigrations(deps.db);
      return pending.length === 0 ? undefined : `${pending.length} migration(s) not applied`;
    },
    temporal: async () => {
      await deps.temporal.withDeadline(Date.now() + deps.config.READINESS_TIMEOUT_MS, () =>
        deps.temporal.workflowService.getSystemInfo({}),
      );
      return undefined;
    },
    ...own,
  };
  const names = Object.keys(probes);
  const results = await Promise.all(names.map((name) => run(name, probes[name]!, deps)));
  const checks = Object.fromEntries(names.map((name, i) => [name, results[i]!]));
  return { ready: results.every((r) => r.ok), checks };
}
