import { DNS_ZONES_MAX } from '../../../domain/dns/reverse-zones.js';
import { text } from '../../../domain/input-bounds.js';
import {
  DNS_PROTOCOLS,
  PROVIDER_CREDENTIAL_MAX,
  PROVIDER_ENDPOINT_MAX,
  PROVIDER_KINDS,
  PROVIDER_NAME_MAX,
} from '../../../domain/providers.js';
import { PageQuery, uuidParam } from '../../../wire/schemas.js';
import { z } from '../../../wire/zod.js';

const editable = {
  name: text({ max: PROVIDER_NAME_MAX, trim: true }).openapi({ example: 'ceph-fra1' }),
  endpoint: text({ max: PROVIDER_ENDPOINT_MAX }).openapi({
    example: 'https://storage.fra1.example.net/api',
    description:
      'An absolute https:// URL (http:// too when `PROVIDER_ALLOW_HTTP` is set), with no user name, ' +
      'password, query or fragment: the credential has its own endpoint. A `dns` provider’s is the ' +
      'base of a PowerDNS authoritative server’s HTTP API (`https://ns1.example.net:8081`), or for ' +
      '`dns_protocol` `rfc2136` the server’s `dns://host[:port]` (port 53 unless named).',
  }),
  dns_zones: z
    .array(
      z
        .string()
        .max(254)
        .regex(/^[A-Za-z0-9.-]+$/, { message: 'Must be letters, digits, hyphens and dots.' }),
    )
    .max(DNS_ZONES_MAX)
    .openapi({
      example: ['2.0.192.in-addr.arpa.', '8.b.d.0.1.0.0.2.ip6.arpa.'],
      description:
        'A `dns` provider’s reverse zones: the panel publishes an address’s PTR record in the most ' +
        'specific of them that holds it, and a resync removes stale records only in them. Names under ' +
        '`in-addr.arpa.` or `ip6.arpa.`, stored lower case with the trailing dot. Other kinds: none (400).',
    }),
};

export const ProviderCreateFields = z
  .strictObject({
    ...editable,
    dns_zones: editable.dns_zones.optional(),
    kind: z.enum(PROVIDER_KINDS),
    dns_protocol: z
      .enum(DNS_PROTOCOLS)
      .optional()
      .openapi({
        description:
          'A `dns` provider’s protocol, which driver publishes its PTR records: `powerdns` (the default; ' +
          'its HTTP API, the endpoint an https:// URL, the credential the API key) or `rfc2136` (dynamic ' +
          'updates signed with TSIG, the endpoint `dns://host[:port]`, the credential the TSIG key as ' +
          '`[algorithm:]name:base64-secret`). Fixed once created. Other kinds: none (400).',
      }),
  })
  .openapi('ProviderCreate');

/** The name, the endpoint and a DNS provider's zones; the kind stays. */
export const ProviderUpdateFields = z.strictObject(editable).partial().openapi('ProviderUpdate');

export const ProviderCredentialFields = z
  .strictObject({
    credential: text({ max: PROVIDER_CREDENTIAL_MAX }).openapi({
      description:
        'Presented to the provider as a bearer token (a `dns` provider’s as PowerDNS’s `X-API-Key`; an ' +
        '`rfc2136` one’s is the TSIG key that signs its updates, `[hmac-sha256|hmac-sha512:]name:base64-secret`, ' +
        'else 400). Write-only: no response holds it.',
    }),
  })
  .openapi('ProviderCredential');

export const ProviderListQuery = PageQuery.extend({
  kind: z.enum(PROVIDER_KINDS).optional().openapi({ description: 'Only providers of this kind.' }),
});

export const ProviderRunParams = uuidParam('provider').merge(uuidParam('run'));
