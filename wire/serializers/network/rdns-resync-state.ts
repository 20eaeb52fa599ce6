import type { PruneRow } from '../../../db/repositories/network/reverse-dns-resyncs.js';
import { RDNS_FAILURES, rdnsFailureDetail } from '../../../domain/dns/reverse-zones.js';
import { z } from '../../zod.js';

/** The last resync of a location's reverse zones: how its prune of stray PTR records went. */
export const ReverseDnsResyncStateEnvelope = z
  .object({
    object: z.literal('rdns_resync_state'),
    attributes: z.object({
      location: z.string().uuid(),
      prune: z
        .enum(['pending', 'done', 'failed'])
        .nullable()
        .openapi({
          description:
            'Removing the PTR records of the provider’s zones that the panel has no name for: `pending` ' +
            'until the DNS server answered, `done`, or `failed` with `failure` (e.g. `rejected`: the ' +
            'server refused the zone transfer; the records were published all the same). Null: never resynced.',
        }),
      failure: z.enum(RDNS_FAILURES).nullable(),
      failure_detail: z.string().nullable().openapi({
        description: 'The failure in a sentence: the DNS server’s HTTP status at most, never its body.',
      }),
      removed: z.number().int().nullable().openapi({ description: 'The stray PTR records deleted.' }),
      requested_at: z.string().nullable(),
      checked_at: z.string().nullable(),
    }),
  })
  .openapi('ReverseDnsResyncState');

export function serializeReverseDnsResyncState(
  locationId: string,
  row: PruneRow | undefined,
): z.infer<typeof ReverseDnsResyncStateEnvelope> {
  return {
    object: 'rdns_resync_state',
    attributes: {
      location: locationId,
      prune: row?.status ?? null,
      failure: row?.failure ?? null,
      failure_detail: row?.failure ? rdnsFailureDetail(row.failure, row.http_status) : null,
      removed: row?.removed ?? null,
      requested_at: row?.requested_at.toISOString() ?? null,
      checked_at: row?.checked_at?.toISOString() ?? null,
    },
  };
}
