import type { InstanceAddressRow } from '../../../db/repositories/network/instance-addresses.js';
import { z } from '../../zod.js';
import { IpAddressEnvelope, serializeIpAddress } from './ip-address.js';

export const InstanceNetworkEnvelope = z
  .object({
    object: z.literal('instance_network'),
    attributes: z.object({
      primary_ipv4: z.string().nullable(),
      primary_ipv6: z.string().nullable(),
      addresses: z.array(IpAddressEnvelope.shape.attributes),
      address_limit: z.number().int().openapi({ description: 'MAX_ADDRESSES_PER_INSTANCE.' }),
      revision: z.number().int().openapi({
        description: 'The network the panel wants the instance to have; it moves on with every change.',
      }),
      applied_revision: z
        .number()
        .int()
        .openapi({ description: 'The newest revision its hypervisor confirmed.' }),
      in_sync: z
        .boolean()
        .openapi({ description: 'Whether the hypervisor has confirmed the current revision.' }),
    }),
  })
  .openapi('InstanceNetwork');

export interface InstanceNetworkView {
  readonly instance: { primary_ipv4: string | null; primary_ipv6: string | null };
  readonly addresses: readonly InstanceAddressRow[];
  readonly limit: number;
  readonly revisions: { network_revision: number; network_applied_revision: number };
}

export function serializeInstanceNetwork(view: InstanceNetworkView): z.infer<typeof InstanceNetworkEnvelope> {
  const { revisions } = view;
  return {
    object: 'instance_network',
    attributes: {
      primary_ipv4: view.instance.primary_ipv4,
      primary_ipv6: view.instance.primary_ipv6,
      addresses: view.addresses.map((row) => serializeIpAddress(row).attributes),
      address_limit: view.limit,
      revision: revisions.network_revision,
      applied_revision: revisions.network_applied_revision,
      in_sync: revisions.network_applied_revision >= revisions.network_revision,
    },
  };
}
