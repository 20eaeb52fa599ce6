import type { MoveBody } from '../../wire/serializers/moves/move.js';

// The operator's view of any move, from the admin API's body of its kind: the lines every kind
// shows, around those the kind adds (its sides or backends, its retention).

const pad = (text: string, width: number) => text.padEnd(width);

/** A list of findings (blockers, warnings) under its title, codes aligned; nothing when empty. */
export function findings(title: string, list: readonly { code: string; detail: string }[]): string[] {
  if (list.length === 0) return [];
  const width = Math.max(...list.map((f) => f.code.length));
  return [title, ...list.map((f) => `  ${pad(f.code, width)}  ${f.detail}`)];
}

/** A state's detail as `key=value` pairs, on one line. */
export function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
}

/** One state a move went through: when, which, and what it recorded. */
export const historyLine = (h: MoveBody['attributes']['history'][number]) =>
  `  ${h.at}  ${pad(h.state, 17)}  ${detailText(h.detail)}`.trimEnd();

/** `label` and its value in the column every move's view aligns on. */
export const field = (label: string, value: string) => `  ${pad(label, 18)}  ${value}`;

/** "Migration", "Storage move": the noun that starts a line. */
export const capitalized = (noun: string) => noun.charAt(0).toUpperCase() + noun.slice(1);

/**
 * A move as `cloudsvc:<kind>:status` shows it: its state, then the kind's own lines (`subject`:
 * its sides or backends; `kept`: how long its old side is kept), the course, the run, the failure
 * and decision, the warnings and every state with its time and detail.
 */
export function moveText(
  noun: string,
  body: MoveBody,
  kind: { subject: readonly string[]; kept: readonly string[] },
): string[] {
  const m = body.attributes;
  const reached = m.point_of_no_return_passed
    ? 'reached: cancel and rollback are refused'
    : 'not reached: cancel and rollback are possible';
  return [
    `${capitalized(noun)} ${m.uuid}: ${m.state}`,
    field('instance', m.instance_uuid),
    ...kind.subject,
    field('mode', `${m.mode}, strategy ${m.strategy}`),
    field('point of no return', `${m.point_of_no_return} (${reached})`),
    field('requested by', `${m.requested_by}${m.reason ? `: ${m.reason}` : ''}`),
    field('lease', m.lease ? `${m.lease.holder}, until ${m.lease.expires_at}` : 'none'),
    ...kind.kept,
    field('workflow', m.workflow_id),
    ...(m.temporal_ui_url ? [field('temporal ui', m.temporal_ui_url)] : []),
    ...(m.failed_step
      ? [field('failed step', `${m.failed_step}${m.failure ? `: ${detailText(m.failure)}` : ''}`)]
      : []),
    ...(m.recovery
      ? [
          field(
            'recovery decision',
            `${m.recovery.decision} by ${m.recovery.by ?? 'unknown'}${m.recovery.reason ? `: ${m.recovery.reason}` : ''}`,
          ),
        ]
      : []),
    ...findings('Warnings', m.warnings),
    'History',
    ...m.history.map(historyLine),
  ];
}
