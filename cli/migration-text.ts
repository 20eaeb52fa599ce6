import type { MigrationBody, MigrationPreflightBody } from '../wire/serializers/migration.js';

/**
 * The operator's view of a preflight report and of a migration: the API's serialized bodies, so the
 * CLI shows what an administrator sees, never more.
 */

/** At most this many candidates, and rejected hypervisors, are named; `--json` lists them all. */
const LISTED = 10;

const pad = (text: string, width: number) => text.padEnd(width);
const side = (h: { uuid: string; name: string }) => `${h.name} (${h.uuid})`;

function findings(title: string, list: readonly { code: string; detail: string }[]): string[] {
  if (list.length === 0) return [];
  const width = Math.max(...list.map((f) => f.code.length));
  return [title, ...list.map((f) => `  ${pad(f.code, width)}  ${f.detail}`)];
}

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

/** A state's detail as `key=value` pairs, on one line. */
export function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
}

export const historyLine = (h: MigrationBody['attributes']['history'][number]) =>
  `  ${h.at}  ${pad(h.state, 17)}  ${detailText(h.detail)}`.trimEnd();

export function migrationText(body: MigrationBody): string[] {
  const m = body.attributes;
  const reached = m.point_of_no_return_passed
    ? 'reached: cancel and rollback are refused'
    : 'not reached: cancel and rollback are possible';
  return [
    `Migration ${m.uuid}: ${m.state}`,
    `  instance            ${m.instance_uuid}`,
    `  source              ${side(m.source)}`,
    `  target              ${side(m.target)}`,
    `  mode                ${m.mode}, strategy ${m.strategy}`,
    `  point of no return  ${m.point_of_no_return} (${reached})`,
    `  requested by        ${m.requested_by}${m.reason ? `: ${m.reason}` : ''}`,
    `  lease               ${m.lease ? `${m.lease.holder}, until ${m.lease.expires_at}` : 'none'}`,
    ...(m.retain_source_until ? [`  source kept until   ${m.retain_source_until}`] : []),
    `  workflow            ${m.workflow_id}`,
    ...(m.temporal_ui_url ? [`  temporal ui         ${m.temporal_ui_url}`] : []),
    ...(m.failed_step
      ? [`  failed step         ${m.failed_step}${m.failure ? `: ${detailText(m.failure)}` : ''}`]
      : []),
    ...(m.recovery
      ? [
          `  recovery decision   ${m.recovery.decision} by ${m.recovery.by ?? 'unknown'}${m.recovery.reason ? `: ${m.recovery.reason}` : ''}`,
        ]
      : []),
    ...findings('Warnings', m.warnings),
    'History',
    ...m.history.map(historyLine),
  ];
}
