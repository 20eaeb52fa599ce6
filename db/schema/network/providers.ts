import type { Generated } from 'kysely';
import type {
  DnsProtocol,
  ProviderKind,
  ProviderResult,
  ProviderRunKind,
  ProviderRunStatus,
} from '../../../domain/providers.js';
import type { NullableTimestamp, Timestamp } from '../columns.js';

// External providers and the runs that test, sync and rotate them.

export interface ProvidersTable {
  id: Generated<string>;
  name: string;
  kind: ProviderKind;
  endpoint: string;
  /** A DNS provider's reverse zones (absolute names); empty for other kinds. */
  dns_zones: Generated<string[]>;
  /** How a DNS provider is spoken to (which driver publishes); null for other kinds. */
  dns_protocol: DnsProtocol | null;
  /** Sealed with SECRETS_KEY (platform/secrets.ts); read only by the activity that calls the provider. */
  credential_sealed: string | null;
  credential_rotated_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProviderRunsTable {
  id: Generated<string>;
  provider_id: string;
  kind: ProviderRunKind;
  status: Generated<ProviderRunStatus>;
  /** A rotation's new credential, sealed, until it is promoted or dropped. */
  candidate_sealed: string | null;
  result: ProviderResult | null;
  http_status: number | null;
  latency_ms: number | null;
  items: number | null;
  requested_by: string | null;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
}
