import { HYPERVISOR_CAPABILITIES, STORAGE_BACKENDS } from '../../../domain/hypervisors.js';
import { z } from '../../zod.js';

/** The writable fields of a hypervisor, shared by update (all optional) and create. */
export const HypervisorFields = z.object({
  name: z.string().trim().min(1).max(100),
  location_uuid: z.string().uuid(),
  cpu_cores: z.number().int().positive().max(4096),
  memory_mb: z.number().int().positive(),
  disk_mb: z.number().int().positive(),
  capabilities: z.array(z.enum(HYPERVISOR_CAPABILITIES)).max(HYPERVISOR_CAPABILITIES.length),
  storage_backends: z.array(z.enum(STORAGE_BACKENDS)).min(1),
});

/** Create takes defaults for the lists; update must not, or a PATCH would reset them. */
export const HypervisorCreateFields = HypervisorFields.extend({
  capabilities: HypervisorFields.shape.capabilities.default([]),
  storage_backends: HypervisorFields.shape.storage_backends.default(['local']),
});

export const unique = <T>(values: readonly T[]) => [...new Set(values)];
