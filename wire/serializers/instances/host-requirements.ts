import { HOST_REQUIREMENTS, type HostRequirement } from '../../../domain/instances/host-requirements.js';
import { z } from '../../zod.js';

const requirements = z.array(z.enum(HOST_REQUIREMENTS)).max(HOST_REQUIREMENTS.length);

export const HostRequirementsBody = z
  .strictObject({
    host_requirements: requirements.openapi({
      description:
        'What binds the instances to their host; each blocks a migration with its own code: ' +
        'cpu_host_passthrough HOST_BOUND_CPU_PASSTHROUGH, gpu_passthrough HOST_BOUND_GPU_PASSTHROUGH, ' +
        'pci_passthrough HOST_BOUND_PCI_PASSTHROUGH, numa_pinning HOST_BOUND_NUMA, hugepages HOST_BOUND_HUGEPAGES. ' +
        'Replaces the list before; [] clears it.',
    }),
  })
  .openapi('HostRequirementsRequest');

export const HostRequirementsEnvelope = z
  .object({
    object: z.literal('host_requirements'),
    attributes: z.object({ uuid: z.string().uuid(), host_requirements: requirements }),
  })
  .openapi('HostRequirements');

export const serializeHostRequirements = (row: { id: string; host_requirements: HostRequirement[] }) => ({
  object: 'host_requirements' as const,
  attributes: { uuid: row.id, host_requirements: row.host_requirements },
});
