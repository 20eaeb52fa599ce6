import type { StorageMovePreflightBody } from '../../wire/serializers/moves/storage-move.js';
import { findings } from './text.js';

/** The operator's view of a storage move's preflight: the admin API's body. */

export function storagePreflightText(body: StorageMovePreflightBody): string[] {
  const r = body.attributes;
  return [
    `Storage move preflight of instance ${r.instance_uuid}, ${r.from_backend} → ${r.to_backend}, mode ${r.mode}: ${r.ok ? 'ok' : 'BLOCKED'}`,
    `  strategy  ${r.strategy ?? 'impossible'}`,
    `  disks     ${r.disks.map((d) => `${d.disk} (${d.size_mb} MB)`).join(', ') || 'none'}`,
    ...findings('Blockers', r.blockers),
    ...findings('Warnings', r.warnings),
  ];
}
