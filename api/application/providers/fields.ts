import { text } from '../../../domain/input-bounds.js';
import {
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
      'password, query or fragment: the credential has its own endpoint.',
  }),
};

export const ProviderCreateFields = z
  .strictObject({ ...editable, kind: z.enum(PROVIDER_KINDS) })
  .openapi('ProviderCreate');

/** The name and the endpoint; the kind stays. */
export const ProviderUpdateFields = z.strictObject(editable).partial().openapi('ProviderUpdate');

export const ProviderCredentialFields = z
  .strictObject({
    credential: text({ max: PROVIDER_CREDENTIAL_MAX }).openapi({
      description: 'Presented to the provider as a bearer token. Write-only: no response holds it.',
    }),
  })
  .openapi('ProviderCredential');

export const ProviderListQuery = PageQuery.extend({
  kind: z.enum(PROVIDER_KINDS).optional().openapi({ description: 'Only providers of this kind.' }),
});

export const ProviderRunParams = uuidParam('provider').merge(uuidParam('run'));
