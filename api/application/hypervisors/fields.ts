import { HYPERVISOR_CAPABILITIES, STORAGE_BACKENDS } from '../../../domain/hypervisors.js';
import { z } from '../../zod.js';

/** The writable fields of a hypervisor, shared by create and update. */
export const HypervisorFields = z.object({
  name: z.string().trim().min(1).max(100),
  location_uuid: z.string().uuid(),
  cpu_cores: z.number().int().positive().max(4096),
  memory_mb: z.number().int().positive(),
  disk_mb: z.number().int().positive(),
  capabilities: z.array(z.enum(HYPERVISOR_CAPABILITIES)).max(HYPERVISOR_CAPABILITIES.length).default([]),
  storage_backends: z.array(z.enum(STORAGE_BACKENDS)).min(1).default(['local']),
});

export const unique = <T>(values: readonly T[]) => [...new Set(values)];
