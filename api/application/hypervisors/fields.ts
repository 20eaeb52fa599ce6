import { HYPERVISOR_CAPABILITIES, STORAGE_BACKENDS } from '../../../domain/hypervisors.js';
import { int4, text } from '../../../domain/input-bounds.js';
import { z } from '../../../wire/zod.js';

/** The writable fields of a hypervisor, shared by update (all optional) and create. */
export const HypervisorFields = z.strictObject({
  name: text({ max: 100, trim: true }),
  location_uuid: z.string().uuid(),
  cpu_cores: int4(1).max(4096),
  memory_mb: int4(1),
  disk_mb: int4(1),
  capabilities: z
    .array(z.enum(HYPERVISOR_CAPABILITIES))
    .max(HYPERVISOR_CAPABILITIES.length)
    .openapi({
      description:
        'What the host can do, as declared before its agent reports: from the first heartbeat on, what the agent ' +
        'reports is used instead.',
    }),
  withheld_capabilities: z
    .array(z.enum(HYPERVISOR_CAPABILITIES))
    .max(HYPERVISOR_CAPABILITIES.length)
    .openapi({
      description:
        'Capabilities the panel must not use even when the agent reports them (say, no live migration to this host).',
    }),
  storage_backends: z.array(z.enum(STORAGE_BACKENDS)).min(1),
});

/** Create takes defaults for the lists; update must not, or a PATCH would reset them. */
export const HypervisorCreateFields = HypervisorFields.extend({
  capabilities: HypervisorFields.shape.capabilities.default([]),
  withheld_capabilities: HypervisorFields.shape.withheld_capabilities.default([]),
  storage_backends: HypervisorFields.shape.storage_backends.default(['local']),
});

export const unique = <T>(values: readonly T[]) => [...new Set(values)];
