import type { MigrationPreflightBody } from '../../wire/serializers/moves/migration.js';
import { findings } from './text.js';

/**
 * The operator's view of a migration's preflight report: the API's serialized body, so the CLI
 * shows what an administrator sees, never more.
 */

/** At most this many candidates, and rejected hypervisors, are named; `--json` lists them all. */
const LISTED = 10;

const side = (h: { uuid: string; name: string }) => `${h.name} (${h.uuid})`;

export function preflightText(body: MigrationPreflightBody): string[] {
  const r = body.attributes;
  const candidates = r.candidates.slice(0, LISTED);
  const rejected = r.rejected.slice(0, LISTED);
  const more = (all: readonly unknown[], shown: readonly unknown[]) =>
    all.length > shown.length ? [`  … and ${all.length - shown.length} more (--json lists them all)`] : [];
  return [
    `Preflight of instance ${r.instance_uuid}, mode ${r.mode}: ${r.ok ? 'ok' : 'BLOCKED'}`,
    `  source    ${r.source ? side(r.source) : '(not on a hypervisor)'}`,
    `  target    ${r.target ? side(r.target) : '(none)'}${r.strategy ? `, strategy ${r.strategy}` : ''}`,
    ...findings('Blockers', r.blockers),
    ...findings('Warnings', r.warnings),
    'Strategy by mode',
    `  ${Object.entries(r.strategies)
      .map(([mode, strategy]) => `${mode} ${strategy ?? 'impossible'}`)
      .join(', ')}`,
    ...(r.candidates.length === 0
      ? ['Candidates: none']
      : [
          'Candidates, best first',
          ...candidates.map(
            (c, i) => `  ${i + 1}. ${side(c)}: ${c.strategy}, ${c.free_memory_mb} MB memory free`,
          ),
          ...more(r.candidates, candidates),
        ]),
    ...(rejected.length === 0
      ? []
      : [
          'Rejected',
          ...rejected.map((h) => `  ${side(h)}: ${h.reasons.map((b) => b.code).join(', ')}`),
          ...more(r.rejected, rejected),
        ]),
  ];
}
