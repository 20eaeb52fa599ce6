import { readStorageMovePreflight } from '../../../services/storage-moves/preflight.js';
import { storageMoveFields } from '../../../wire/requests/storage-move-fields.js';
import { commonErrors, jsonContent, notFoundResponse } from '../../../wire/schemas.js';
import {
  StorageMovePreflightEnvelope,
  serializeStorageMovePreflight,
} from '../../../wire/serializers/moves/storage-move.js';
import { z } from '../../../wire/zod.js';
import { movePreflightRoute } from '../moves-kit/preflight.js';

const PreflightBody = z.strictObject(storageMoveFields).openapi('StorageMovePreflightRequest');

export const { register } = movePreflightRoute({
  method: 'post',
  path: '/instances/{instance}/storage-moves/preflight',
  tag: 'Storage moves',
  summary: 'Preflight a storage move (read-only)',
  description:
    'Judges moving the instance’s disks on `from_backend` (its root disk, its attached volumes) to `to_backend` on ' +
    'its hypervisor, changing nothing: every blocker and warning with a stable code, the strategy the mode gives ' +
    '(live needs the hypervisor’s `live_migration`), and the disks that would move. A blocked move is a 200 with ' +
    '`ok: false`.',
  body: PreflightBody,
  responses: {
    200: jsonContent(StorageMovePreflightEnvelope, 'The report.'),
    ...commonErrors,
    ...notFoundResponse,
  },
  judge: async (deps, instanceId, body) => {
    const request = { instanceId, from: body.from_backend, to: body.to_backend, mode: body.mode };
    const { report } = await readStorageMovePreflight(deps, request);
    return serializeStorageMovePreflight(instanceId, request, report);
  },
});
