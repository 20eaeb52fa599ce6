import { z } from 'zod';
import { ISO_URL_MAX } from '../media/iso-sources.js';
import { bootedRoom, instanceId, powerState } from './shapes.js';

/** The instance's ISO library: images its hypervisor fetches and keeps for it. */
export const MEDIA_TASKS = {
  /**
   * Fetches the ISO from `url` into the instance's library on this hypervisor, unless it has it:
   * the agent connects only to addresses the host resolves to that are public or in
   * `allowed_networks`, follows no redirect, and stops past `max_mb`. The result is what arrived.
   */
  'iso.fetch': {
    params: z.object({
      instance_id: instanceId,
      iso_id: z.string().uuid(),
      url: z.string().min(1).max(ISO_URL_MAX),
      max_mb: z.number().int().positive(),
      allowed_networks: z.array(z.string().min(1).max(64)).max(100),
    }),
    result: z.object({
      size_mb: z.number().int().nonnegative(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  },
  /**
   * The instance's CD-ROM drive holds this ISO of its library (null: is empty): changed under a
   * running guest, kept for a stopped one's boot. The result is what the drive holds.
   */
  'iso.mount': {
    params: z.object({ instance_id: instanceId, iso_id: z.string().uuid().nullable() }),
    result: z.object({ iso_id: z.string().uuid().nullable() }),
  },
  /**
   * The ISO is no longer in the instance's library on this hypervisor: its file removed. One that is
   * gone already (or whose instance left the host) is done; one in the drive is refused. The result
   * says whether this run removed anything.
   */
  'iso.delete': {
    params: z.object({ instance_id: instanceId, iso_id: z.string().uuid() }),
    result: z.object({ deleted: z.boolean() }),
  },
  /** The guest (re)starts from its CD-ROM drive, holding this ISO; it boots from its disk again after. */
  'iso.boot': {
    params: z.object({ instance_id: instanceId, iso_id: z.string().uuid() }),
    result: z.object({ power_state: powerState, ...bootedRoom }),
  },
} as const;
