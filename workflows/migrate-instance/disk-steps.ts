import { patched } from '@temporalio/workflow';
import { ROOT_DISK, volumeDisk } from '../../domain/migrations/disks.js';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import { stepFailure } from '../lib/moves/run.js';
import { PATCHES } from '../lib/patches.js';
import type { MigrationRun, MigrationStep } from './run.js';
import type { MigrationTasks } from './tasks.js';

/** One disk the migration moves, with the sealed token its target redeems for it. */
interface MovingDisk {
  readonly disk: string;
  readonly token: string;
  /** How the step summaries name it. */
  readonly label: string;
}

/** The root disk first, then each attached volume (runs begun before volumes moved carry none). */
const movingDisks = (input: MigrateInstanceInput): MovingDisk[] => [
  { disk: ROOT_DISK, token: input.transferToken, label: 'the root disk' },
  ...(input.volumes ?? []).map((v) => ({
    disk: volumeDisk(v.id),
    token: v.transferToken,
    label: `volume ${v.id}`,
  })),
];

/**
 * TRANSFERRING and VERIFYING_DISK: every disk offered by the source, pulled by the target with
 * its own single-use token, then checksummed there against the source's offer.
 */
export function diskSteps(
  run: MigrationRun,
  input: MigrateInstanceInput,
  tasks: MigrationTasks,
): MigrationStep[] {
  const { onSource, onTarget, ids, long } = tasks;
  const disks = movingDisks(input);
  const offered = new Map<string, string>();
  // Sealed: opened only in the answer that hands each task to its agent.
  const transport = input.transportSecret ? { transport_secret: input.transportSecret } : {};
  return [
    {
      state: 'TRANSFERRING',
      run: async () => {
        // Pushed first: a rollback removes whatever copies the source made, even of a half-done export.
        if (patched(PATCHES.migrationWithdrawsOffers.id))
          run.saga.push('offer the disks', () =>
            onSource('disk.withdraw', ids, 'withdraw the offered disks'),
          );
        const received: number[] = [];
        for (const { disk, token, label } of disks) {
          const exported = await onSource('disk.export', { ...ids, disk, ...transport }, `offer ${label}`);
          offered.set(disk, exported.checksum);
          await run.books.recordTransferEndpoint({
            migrationId: input.migrationId,
            disk,
            endpoint: exported.endpoint,
          });
          const pulled = await onTarget(
            'disk.transfer',
            { ...ids, disk, transfer_token: token, ...transport },
            `pull ${label}`,
            long,
          );
          received.push(pulled.size_mb);
        }
        const [root, ...volumes] = received;
        return { size_mb: root, ...(volumes.length > 0 && { volumes_mb: volumes }) };
      },
    },
    {
      state: 'VERIFYING_DISK',
      run: async () => {
        const checksums: string[] = [];
        for (const { disk, label } of disks) {
          const { checksum } = await onTarget('disk.verify', { ...ids, disk }, `checksum ${label}`);
          if (checksum !== offered.get(disk))
            throw stepFailure(
              'DISK_CHECKSUM_MISMATCH',
              disk === ROOT_DISK
                ? 'The disk on the target differs from the source’s.'
                : `The disk of ${label} on the target differs from the source’s.`,
            );
          checksums.push(checksum);
        }
        const [root, ...volumes] = checksums;
        return { checksum: root, ...(volumes.length > 0 && { volume_checksums: volumes }) };
      },
    },
  ];
}
