import { existsSync, rmSync } from 'node:fs';
import type { AgentTaskParams } from '../../domain/agent-tasks.js';
import { type FetchKind, fetchToFile, partialOf } from './fetch.js';

const MIB = 1024 * 1024;

type FetchParams = Pick<AgentTaskParams<'iso.fetch'>, 'url' | 'max_mb' | 'allowed_networks'>;

/** An ISO: its SHA-256 reported for the customer to compare; no redirect followed (its target was never shown). */
const ISO: FetchKind = { noun: 'ISO', codes: 'ISO', algorithm: 'sha256', maxRedirects: 0 };

/**
 * Removes the ISO's file and what a fetch cut off by a crash left beside it; whether there was
 * anything to remove.
 */
export function removeIsoFile(target: string): boolean {
  const held = [target, partialOf(target)].filter((file) => existsSync(file));
  for (const file of held) rmSync(file, { force: true });
  return held.length > 0;
}

/** Fetches the ISO at `params.url` into `target` (agent/media/fetch.ts); at most `max_mb`. */
export async function fetchIso(
  params: FetchParams,
  target: string,
  signal: AbortSignal,
): Promise<{ size_mb: number; sha256: string }> {
  const { bytes, digest } = await fetchToFile(params, ISO, target, signal);
  return { size_mb: Math.ceil(bytes / MIB), sha256: digest };
}
