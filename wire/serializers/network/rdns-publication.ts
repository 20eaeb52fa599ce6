import {
  RDNS_FAILURES,
  RDNS_STATUSES,
  type RdnsFailure,
  type RdnsStatus,
  rdnsFailureDetail,
} from '../../../domain/dns/reverse-zones.js';
import { z } from '../../zod.js';

/** A PTR record's publication, in every envelope that shows an address's `rdns`. */
export const rdnsPublicationFields = {
  rdns_status: z
    .enum(RDNS_STATUSES)
    .nullable()
    .openapi({
      description:
        'What the location’s DNS server answered for the record as it is now: `pending` (not yet ' +
        'answered), `published` (it serves the name, or after a clear serves none), `failed` (see ' +
        '`rdns_failure`; retried by the publishing workflow when the failure may pass). Null: the ' +
        'location has no DNS provider, so the name is kept but published nowhere.',
    }),
  rdns_failure: z
    .enum(RDNS_FAILURES)
    .nullable()
    .openapi({ description: 'Why the record is `failed` (docs/dns.md lists the words); null otherwise.' }),
  rdns_failure_detail: z.string().nullable().openapi({
    example: 'The DNS server did not answer (refused, reset or timed out).',
    description: 'The failure in a sentence: the DNS server’s HTTP status at most, never its body.',
  }),
  rdns_checked_at: z
    .string()
    .nullable()
    .openapi({ description: 'When a DNS server’s answer last set the state; null before any.' }),
};

export interface RdnsPublicationRow {
  readonly rdns_status: RdnsStatus | null;
  readonly rdns_failure: RdnsFailure | null;
  readonly rdns_http_status: number | null;
  readonly rdns_checked_at: Date | null;
}

export function serializeRdnsPublication(row: RdnsPublicationRow) {
  return {
    rdns_status: row.rdns_status,
    rdns_failure: row.rdns_failure,
    rdns_failure_detail: row.rdns_failure ? rdnsFailureDetail(row.rdns_failure, row.rdns_http_status) : null,
    rdns_checked_at: row.rdns_checked_at?.toISOString() ?? null,
  };
}
