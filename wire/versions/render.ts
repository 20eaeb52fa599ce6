import { API_VERSIONS, type ApiVersion, olderThan } from '../../domain/api-versions/versions.js';
import type { VersionChange, WireEnvelope } from './change.js';
import { guestDriftObject } from './guest-drift-object.js';

/** Every change since the first version, oldest first (docs/api-changelog.md). */
export const VERSION_CHANGES: readonly VersionChange[] = [guestDriftObject];

const isEnvelope = (value: object): value is WireEnvelope =>
  typeof (value as { object?: unknown }).object === 'string';

/** The downgrades each version needs, newest change first: undone in the reverse of their order. */
const DOWNGRADES: ReadonlyMap<ApiVersion, readonly VersionChange[]> = new Map(
  API_VERSIONS.map((version) => [
    version,
    VERSION_CHANGES.filter((change) => olderThan(version, change.version)).reverse(),
  ]),
);

const downgradesFor = (version: ApiVersion): readonly VersionChange[] => DOWNGRADES.get(version) ?? [];

/** Whether an answer in `version` differs from the current one at all (most do not: no work). */
export const differsFromCurrent = (version: ApiVersion): boolean => downgradesFor(version).length > 0;

/**
 * A JSON body rendered in the current version, as `version` shows it: every envelope in it, at
 * any depth (a list's items, an event's `data.object`), downgraded by each change made after
 * `version`, newest first. The body given is left as it was.
 */
export function renderInVersion<T>(body: T, version: ApiVersion): T {
  const changes = downgradesFor(version);
  if (changes.length === 0) return body;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) copy[key] = walk(child);
    if (!isEnvelope(copy)) return copy;
    let envelope: WireEnvelope = copy;
    for (const change of changes) envelope = change.downgrade[envelope.object]?.(envelope) ?? envelope;
    return envelope;
  };
  return walk(body) as T;
}
