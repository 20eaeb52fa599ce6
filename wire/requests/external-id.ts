import { EXTERNAL_ID, EXTERNAL_ID_MAX, EXTERNAL_ID_MESSAGE } from '../../domain/external-ids.js';
import { z } from '../zod.js';

/** A billing system's own id for a user or an instance, as a body and a path carry it (docs/api.md "External references"). */

const externalId = () =>
  z.string().min(1).max(EXTERNAL_ID_MAX).regex(EXTERNAL_ID, { message: EXTERNAL_ID_MESSAGE });

export const externalIdField = (of: 'user' | 'instance') =>
  externalId()
    .nullable()
    .openapi({
      example: 'whmcs-service-1042',
      description:
        `The billing system’s own id for the ${of}: 1 to ${EXTERNAL_ID_MAX} visible ASCII characters (U+0021 to ` +
        `U+007E; no spaces), matched exactly. One ${of}’s at most (409 \`EXTERNAL_ID_TAKEN\`); null: none.`,
    });

/** `{external_id}` of `/users/external/{external_id}`: percent-encoded; one that could be no id is an unknown one (404). */
export const ExternalIdParam = z.object({
  external_id: externalId().openapi({
    param: { name: 'external_id', in: 'path' },
    example: 'whmcs-service-1042',
    description: 'Percent-encoded as a path segment (`/` as `%2F`, `%` as `%25`).',
  }),
});

/** What the external id of a user or an instance reads in its administrators' envelope. */
export const ExternalIdAttribute = z
  .string()
  .nullable()
  .openapi({ example: 'whmcs-service-1042', description: 'The billing system’s own id; null: none.' });
