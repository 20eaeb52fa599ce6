import type { ReverseWithdrawalRow } from '../../../db/repositories/network/reverse-dns-withdrawals.js';
import { ptrName, RDNS_FAILURES, rdnsFailureDetail } from '../../../domain/dns/reverse-zones.js';
import { z } from '../../zod.js';

/**
 * The PTR record of a released address, still to be deleted from its location's DNS server. Only
 * withdrawals not yet done are shown: one the server took is gone (docs/dns.md "Released addresses").
 */
export const ReverseWithdrawalEnvelope = z
  .object({
    object: z.literal('rdns_withdrawal'),
    attributes: z.object({
      uuid: z.string().uuid(),
      address: z.string().openapi({ example: '203.0.113.10' }),
      name: z.string().openapi({
        example: '10.113.0.203.in-addr.arpa.',
        description: 'The PTR owner name to delete, absolute.',
      }),
      status: z.enum(['pending', 'failed']).openapi({
        description:
          '`pending`: not yet answered by the DNS server (one a lost wake left is taken up by the ' +
          'worker’s sweep); `failed`: see `failure` (tried again as a record is: the step’s retries, ' +
          'the next change in the location, a resync).',
      }),
      failure: z.enum(RDNS_FAILURES).nullable(),
      failure_detail: z.string().nullable().openapi({
        description: 'The failure in a sentence: the DNS server’s HTTP status at most, never its body.',
      }),
      requested_at: z.string().openapi({ description: 'When the address was released (again).' }),
      checked_at: z
        .string()
        .nullable()
        .openapi({ description: 'When a DNS server’s answer last set the state; null before any.' }),
    }),
  })
  .openapi('ReverseWithdrawal');

export function serializeReverseWithdrawal(
  row: ReverseWithdrawalRow,
): z.infer<typeof ReverseWithdrawalEnvelope> {
  return {
    object: 'rdns_withdrawal',
    attributes: {
      uuid: row.id,
      address: row.address,
      name: ptrName(row.address),
      status: row.status,
      failure: row.failure,
      failure_detail: row.failure ? rdnsFailureDetail(row.failure, row.http_status) : null,
      requested_at: row.requested_at.toISOString(),
      checked_at: row.checked_at?.toISOString() ?? null,
    },
  };
}
