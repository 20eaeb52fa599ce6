import type { StorageBackend } from '../../domain/hypervisors.js';
import { recoverStorageMoveWith } from '../../services/storage-moves/control.js';
import { readStorageMovePreflight } from '../../services/storage-moves/preflight.js';
import { getStorageMove } from '../../services/storage-moves/reads.js';
import { requestStorageMove } from '../../services/storage-moves/request.js';
import {
  type StorageMoveBody,
  type StorageMovePreflightBody,
  serializeStorageMove,
  serializeStorageMovePreflight,
} from '../../wire/serializers/moves/storage-move.js';
import { instanceByReference } from '../references.js';
import { BACKEND_OPTIONS, backendsOf } from '../storage-move-options.js';
import { hypervisorFacts, hypervisorLine, instanceFacts } from './hypervisor-facts.js';
import type { MoveAskBase, MoveCliKind } from './kind.js';
import { storagePreflightText } from './storage-move-text.js';
import { field, moveText } from './text.js';

interface StorageMoveAsk extends MoveAskBase {
  readonly from: StorageBackend;
  readonly to: StorageBackend;
}

const backends = (m: StorageMoveBody['attributes']) => `${m.from_backend} → ${m.to_backend}`;

/** A storage move to the `cloudsvc:storage-move:*` commands (docs/migration.md "Storage moves"). */
export const storageMoveCli: MoveCliKind<StorageMoveBody, StorageMovePreflightBody, StorageMoveAsk> = {
  noun: 'storage move',
  command: 'storage-move',
  askOptions: BACKEND_OPTIONS,
  async ask(ctx, { instance, mode, options }) {
    const { from, to } = backendsOf(options);
    return { instanceId: await instanceByReference(ctx.db(), instance), mode, from, to };
  },
  async preflight(deps, ask) {
    const { report } = await readStorageMovePreflight(deps, ask);
    return serializeStorageMovePreflight(ask.instanceId, ask, report);
  },
  preflightText: storagePreflightText,
  question: (ask, report) =>
    `Move the disks of instance ${ask.instanceId} from ${ask.from} to ${ask.to} (${report.attributes.strategy}, ${ask.mode})?`,
  request: async (deps, actor, ask) => (await requestStorageMove(deps, actor, ask)).id,
  show: async (deps, id) => serializeStorageMove(await getStorageMove(deps, id), deps.config),
  text: (body) => {
    const m = body.attributes;
    return moveText('storage move', body, {
      subject: [
        field('hypervisor', `${m.hypervisor.name} (${m.hypervisor.uuid})`),
        field('backends', backends(m)),
        field('disks', m.disks.map((d) => `${d.disk} (${d.size_mb} MB)`).join(', ')),
      ],
      kept: m.retain_until ? [field('old copies until', m.retain_until)] : [],
    });
  },
  kept: (body) =>
    body.attributes.retain_until
      ? `The old copies are kept until ${body.attributes.retain_until}, then removed.`
      : undefined,
  decide: async (deps, actor, { id, ...decision }) =>
    serializeStorageMove(await recoverStorageMoveWith(deps, actor, { moveId: id, ...decision }), deps.config),
  decisions: {
    retry: (step) => `run ${step} again`,
    target_authoritative: () =>
      'the guest is good on the new copies: commit them, then remove the old ones after the retention window',
    source_authoritative: () =>
      'the guest is switched back to the old copies, the new ones removed, and the move ends ROLLED_BACK',
  },
  async situation(deps, body) {
    const m = body.attributes;
    const hypervisor = await hypervisorFacts(deps, m.hypervisor);
    const instance = await instanceFacts(deps, m.instance_uuid);
    return {
      facts: { hypervisor, backends: { from: m.from_backend, to: m.to_backend }, instance },
      lines: [
        `  hypervisor   ${hypervisorLine(hypervisor)}`,
        `  backends     ${backends(m)}, disks ${m.disks.map((d) => d.disk).join(', ')}`,
        `  instance     ${instance.uuid}: ${instance.status}`,
      ],
    };
  },
  caution:
    'The panel never switches the guest back by itself: check the hypervisor and both backends before you decide.',
};
