import type { ProviderRunRow } from '../../../db/repositories/network/provider-run-lists.js';
import type { ProviderRow } from '../../../db/repositories/network/providers.js';
import {
  DNS_PROTOCOLS,
  PROVIDER_KINDS,
  PROVIDER_RESULTS,
  PROVIDER_RUN_KINDS,
  PROVIDER_RUN_STATUSES,
} from '../../../domain/providers.js';
import { z } from '../../zod.js';

const time = z.string().openapi({ example: '2026-11-25T01:02:03.000Z' });
const iso = (value: Date | null) => value?.toISOString() ?? null;

/** A provider: never its credential, only whether one is set and when it last changed. */
export const ProviderEnvelope = z
  .object({
    object: z.literal('provider'),
    attributes: z.object({
      uuid: z.string().uuid(),
      name: z.string().openapi({ example: 'ceph-fra1' }),
      kind: z.enum(PROVIDER_KINDS),
      endpoint: z.string().openapi({ example: 'https://storage.fra1.example.net/api' }),
      dns_zones: z.array(z.string()).openapi({
        example: ['2.0.192.in-addr.arpa.'],
        description: 'A `dns` provider’s reverse zones; empty for other kinds.',
      }),
      dns_protocol: z.enum(DNS_PROTOCOLS).nullable().openapi({
        description:
          'How a `dns` provider is spoken to: `powerdns` (its HTTP API) or `rfc2136` (dynamic updates signed with TSIG); null for other kinds.',
      }),
      credential_set: z.boolean(),
      credential_rotated_at: time.nullable(),
      created_at: time,
      updated_at: time,
    }),
  })
  .openapi('Provider');

export function serializeProvider(row: ProviderRow): z.infer<typeof ProviderEnvelope> {
  return {
    object: 'provider',
    attributes: {
      uuid: row.id,
      name: row.name,
      kind: row.kind,
      endpoint: row.endpoint,
      dns_zones: row.dns_zones,
      dns_protocol: row.dns_protocol,
      credential_set: row.credential_set,
      credential_rotated_at: iso(row.credential_rotated_at),
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}

export const ProviderRunEnvelope = z
  .object({
    object: z.literal('provider_run'),
    attributes: z.object({
      uuid: z.string().uuid(),
      provider_uuid: z.string().uuid(),
      kind: z.enum(PROVIDER_RUN_KINDS),
      status: z.enum(PROVIDER_RUN_STATUSES),
      result: z
        .enum(PROVIDER_RESULTS)
        .nullable()
        .openapi({
          description:
            '`ok`; `unauthorized` (the provider answered 401 or 403); `unreachable` (no answer in 10 s); ' +
            '`failed` (another status, a redirect, or a sync body that is not an inventory); ' +
            '`no_credential`. Null while running, and on a run whose workflow could not start.',
        }),
      http_status: z.number().int().nullable(),
      latency_ms: z.number().int().nullable(),
      items: z.number().int().nullable().openapi({ description: 'A sync’s inventory size.' }),
      started_at: time,
      finished_at: time.nullable(),
    }),
  })
  .openapi('ProviderRun');

export function serializeProviderRun(row: ProviderRunRow): z.infer<typeof ProviderRunEnvelope> {
  return {
    object: 'provider_run',
    attributes: {
      uuid: row.id,
      provider_uuid: row.provider_id,
      kind: row.kind,
      status: row.status,
      result: row.result,
      http_status: row.http_status,
      latency_ms: row.latency_ms,
      items: row.items,
      started_at: row.started_at.toISOString(),
      finished_at: iso(row.finished_at),
    },
  };
}
