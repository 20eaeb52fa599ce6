import { LiveProgressRecord } from '../../../domain/migrations/live-progress.js';
import { z } from '../../zod.js';

// A live move's figures as administrators see them (docs/migration.md "Live progress"): what the
// record keeps, without the report it came in (an agent task's id is never shown).

const bytes = (description: string) => z.number().int().nonnegative().openapi({ description });

export const LiveProgressBody = z
  .object({
    figures: z
      .object({
        transferred_bytes: bytes('Memory sent so far (QEMU’s `ram.transferred`).'),
        remaining_bytes: bytes('Memory still to send (`ram.remaining`).'),
        total_bytes: bytes('The guest’s memory (`ram.total`).'),
        dirty_rate_bytes_per_s: bytes(
          'The rate the guest dirties its memory at (`ram.dirty-pages-rate` × `ram.page-size`).',
        ),
        iterations: z
          .number()
          .int()
          .nonnegative()
          .openapi({ description: 'Passes made over the memory (`ram.dirty-sync-count`).' }),
        throttle_pct: z.number().int().min(0).max(100).openapi({
          description:
            'How much auto-converge slows the guest now (`cpu-throttle-percentage`); 0: not at all.',
        }),
        expected_downtime_ms: z.number().int().nonnegative().openapi({
          description: 'The downtime a switchover would take now, as QEMU expects it (`expected-downtime`).',
        }),
      })
      .nullable()
      .openapi({
        description:
          'The latest figures the hypervisor reported while the memory moved (a later report replaces them, an older ' +
          'one never does); null when the move ended before a report carried any.',
      }),
    reported_at: z
      .string()
      .openapi({ description: 'When the panel took the report the figures (or the end) came in.' }),
    downtime_ms: z.number().int().nonnegative().nullable().openapi({
      description:
        'Once the memory has moved: the downtime the hypervisor measured (the same figure as `interruption_ms`). Null while it moves.',
    }),
    total_ms: z.number().int().nonnegative().nullable().openapi({
      description:
        'Once the memory has moved: the live move’s total time, from entering LIVE_MIGRATING to the move’s completion on the source. Null while it moves.',
    }),
  })
  .openapi('MigrationLiveProgress', {
    description:
      'A live move’s progress as QEMU reports it, then its end (docs/migration.md "Live progress").',
  });

export type LiveProgressBody = z.infer<typeof LiveProgressBody>;

/** The record's figures, checked against their shape: a row that does not hold it shows none. */
export function serializeLiveProgress(stored: unknown): LiveProgressBody | null {
  const parsed = LiveProgressRecord.safeParse(stored);
  if (!parsed.success) return null;
  const { figures, reported_at, downtime_ms, total_ms } = parsed.data;
  return { figures, reported_at, downtime_ms, total_ms };
}
