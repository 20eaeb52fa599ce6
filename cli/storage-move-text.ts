import type { StorageMoveBody, StorageMovePreflightBody } from '../wire/serializers/storage-move.js';

/** The operator's view of a storage move's preflight and of a storage move: the admin API's bodies. */

type Preflight = StorageMovePreflightBody;
type Move = StorageMoveBody;

const findings = (title: string, list: readonly { code: string; detail: string }[]) =>
  list.length === 0 ? [] : [title, ...list.map((f) => `  ${f.code}  ${f.detail}`)];

export function storagePreflightText(body: Preflight): string[] {
  const r = body.attributes;
  return [
    `Storage move preflight of instance ${r.instance_uuid}, ${r.from_backend} → ${r.to_backend}, mode ${r.mode}: ${r.ok ? 'ok' : 'BLOCKED'}`,
    `  strategy  ${r.strategy ?? 'impossible'}`,
    `  disks     ${r.disks.map((d) => `${d.disk} (${d.size_mb} MB)`).join(', ') || 'none'}`,
    ...findings('Blockers', r.blockers),
    ...findings('Warnings', r.warnings),
  ];
}

export const storageHistoryLine = (entry: Move['attributes']['history'][number]) =>
  `  ${entry.at}  ${entry.state}${Object.keys(entry.detail).length ? `  ${JSON.stringify(entry.detail)}` : ''}`;

export function storageMoveText(body: Move): string[] {
  const m = body.attributes;
  return [
    `Storage move ${m.uuid} of instance ${m.instance_uuid} on ${m.hypervisor.name}: ${m.state}`,
    `  backends  ${m.from_backend} → ${m.to_backend} (${m.strategy}, ${m.mode}), disks ${m.disks.map((d) => d.disk).join(', ')}`,
    `  by        ${m.requested_by}${m.reason ? ` (${m.reason})` : ''}`,
    `  point of no return ${m.point_of_no_return}${m.point_of_no_return_passed ? ' (passed)' : ''}`,
    ...(m.failure
      ? [`  failure   ${JSON.stringify(m.failure)}${m.failed_step ? ` in ${m.failed_step}` : ''}`]
      : []),
    ...(m.recovery ? [`  recovery  ${JSON.stringify(m.recovery)}`] : []),
    ...(m.retain_until ? [`  old copies kept until ${m.retain_until}`] : []),
    `  workflow  ${m.workflow_id}${m.temporal_ui_url ? ` ${m.temporal_ui_url}` : ''}`,
    'History',
    ...m.history.map(storageHistoryLine),
  ];
}
