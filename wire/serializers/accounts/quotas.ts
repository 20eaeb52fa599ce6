import type { QuotaResource } from '../../../domain/quotas.js';
import type { QuotaStanding } from '../../../services/quotas.js';
import { z } from '../../zod.js';

const MEANINGS: Record<QuotaResource, string> = {
  instances: 'Instances (every one not deleted).',
  cpu_cores: 'vCPUs of those instances.',
  memory_mb: 'Memory of those instances, in MB.',
  disk_mb: 'Disk in MB: the instances’ root disks (as grown) and the volumes together.',
  volumes: 'Volumes.',
  ips: 'IP addresses of either family: each instance’s, extra ones and floating IPs.',
};

const limit = (r: QuotaResource) =>
  z
    .number()
    .int()
    .nullable()
    .openapi({ description: `${MEANINGS[r]} null: unlimited.` });
const used = (r: QuotaResource) => z.number().int().openapi({ description: MEANINGS[r] });

export const QuotaLimitsSchema = z
  .object({
    instances: limit('instances'),
    cpu_cores: limit('cpu_cores'),
    memory_mb: limit('memory_mb'),
    disk_mb: limit('disk_mb'),
    volumes: limit('volumes'),
    ips: limit('ips'),
  })
  .openapi('QuotaLimits');

export const QuotasEnvelope = z
  .object({
    object: z.literal('quotas'),
    attributes: z.object({
      limits: QuotaLimitsSchema,
      usage: z
        .object({
          instances: used('instances'),
          cpu_cores: used('cpu_cores'),
          memory_mb: used('memory_mb'),
          disk_mb: used('disk_mb'),
          volumes: used('volumes'),
          ips: used('ips'),
        })
        .openapi('QuotaUsage', { description: 'What the account holds now.' }),
      updated_at: z
        .string()
        .nullable()
        .openapi({ description: 'When an administrator last set the limits; null: never (all unlimited).' }),
    }),
  })
  .openapi('Quotas');

export function serializeQuotas(standing: QuotaStanding): z.infer<typeof QuotasEnvelope> {
  return {
    object: 'quotas',
    attributes: {
      limits: { ...standing.limits },
      usage: { ...standing.usage },
      updated_at: standing.updatedAt?.toISOString() ?? null,
    },
  };
}
