import type { IsoRow } from '../../../db/repositories/storage/instance-isos.js';
import { ISO_STATES } from '../../../domain/media/isos.js';
import { z } from '../../zod.js';

export const IsoEnvelope = z
  .object({
    object: z.literal('iso'),
    attributes: z.object({
      uuid: z.string().uuid(),
      name: z.string(),
      url: z.string().openapi({ description: 'Where it was fetched from.' }),
      state: z.enum(ISO_STATES).openapi({
        description:
          '`fetching` while the hypervisor downloads it, `available` once it has it, `failed` (see `error`), ' +
          '`deleting` while the hypervisor removes it (then it is gone).',
      }),
      size_mb: z.number().int().nullable().openapi({ description: 'Its size once fetched.' }),
      sha256: z
        .string()
        .nullable()
        .openapi({ description: 'The SHA-256 of what arrived, to compare with its publisher’s.' }),
      error: z.object({ code: z.string(), message: z.string() }).nullable().openapi({
        description:
          'Why the fetch failed: `ISO_ADDRESS_REFUSED`, `ISO_REDIRECTED`, `ISO_TOO_LARGE`, `ISO_FETCH_FAILED`, …',
      }),
      mounted: z
        .boolean()
        .openapi({ description: 'Whether it is in the instance’s CD-ROM drive (one at most).' }),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  })
  .openapi('Iso');

/** The instance's library: what `GET …/media/iso` and the media actions answer. */
export const IsoListEnvelope = z.object({ data: z.array(IsoEnvelope) }).openapi('IsoList');

export function serializeIso(row: IsoRow): z.infer<typeof IsoEnvelope> {
  return {
    object: 'iso',
    attributes: {
      uuid: row.id,
      name: row.name,
      url: row.url,
      state: row.state,
      size_mb: row.size_mb,
      sha256: row.sha256,
      error: row.error,
      mounted: row.mounted,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}

/** An administrator also sees whose it is, which instance's, and where it is kept. */
export const AdminIsoEnvelope = z
  .object({
    object: z.literal('iso'),
    attributes: IsoEnvelope.shape.attributes.extend({
      user: z.string().uuid(),
      instance: z.string().uuid(),
      hypervisor: z.string().uuid().openapi({ description: 'The hypervisor that fetched it and keeps it.' }),
    }),
  })
  .openapi('AdminIso');

export function serializeAdminIso(row: IsoRow): z.infer<typeof AdminIsoEnvelope> {
  const { object, attributes } = serializeIso(row);
  return {
    object,
    attributes: {
      ...attributes,
      user: row.user_id,
      instance: row.instance_id,
      hypervisor: row.hypervisor_id,
    },
  };
}
