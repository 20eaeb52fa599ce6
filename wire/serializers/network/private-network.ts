import type { NicRow } from '../../../db/repositories/network/private-network-nics.js';
import type { PrivateNetworkRow } from '../../../db/repositories/network/private-networks.js';
import { ADDRESS_STATES } from '../../../domain/networks/addresses.js';
import { z } from '../../zod.js';

const attributes = {
  uuid: z.string().uuid(),
  name: z.string(),
  location: z.string().openapi({ description: 'The code of its location.' }),
  cidr: z.string().openapi({ example: '10.20.0.0/24' }),
  nic_count: z
    .number()
    .int()
    .openapi({ description: 'Instances on the network, joining and leaving included.' }),
  created_at: z.string(),
  updated_at: z.string(),
};

export const PrivateNetworkEnvelope = z
  .object({ object: z.literal('private_network'), attributes: z.object(attributes) })
  .openapi('PrivateNetwork');

const Nic = z
  .object({
    uuid: z.string().uuid(),
    instance: z.string().uuid(),
    address: z.string().openapi({ example: '10.20.0.1' }),
    mac: z.string().openapi({ example: '02:4a:1f:00:9c:21' }),
    state: z.enum(ADDRESS_STATES).openapi({
      description: '`attaching` or `detaching` until the hypervisor has applied the change.',
    }),
  })
  .openapi('PrivateNetworkNic');

/** One network as shown alone: with the instances on it. */
export const PrivateNetworkDetailEnvelope = z
  .object({
    object: z.literal('private_network'),
    attributes: z.object({ ...attributes, nics: z.array(Nic) }),
  })
  .openapi('PrivateNetworkDetail');

export function serializePrivateNetwork(row: PrivateNetworkRow): z.infer<typeof PrivateNetworkEnvelope> {
  return {
    object: 'private_network',
    attributes: {
      uuid: row.id,
      name: row.name,
      location: row.location_code,
      cidr: row.cidr,
      nic_count: row.nics,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}

export function serializePrivateNetworkDetail(
  row: PrivateNetworkRow,
  nics: readonly NicRow[],
): z.infer<typeof PrivateNetworkDetailEnvelope> {
  const { object, attributes } = serializePrivateNetwork(row);
  return {
    object,
    attributes: {
      ...attributes,
      nics: nics.map((nic) => ({
        uuid: nic.id,
        instance: nic.instance_id,
        address: nic.address,
        mac: nic.mac,
        state: nic.state,
      })),
    },
  };
}

/** An administrator also sees whose it is. */
export const AdminPrivateNetworkEnvelope = z
  .object({
    object: z.literal('private_network'),
    attributes: z.object({ ...attributes, user: z.string().uuid() }),
  })
  .openapi('AdminPrivateNetwork');

export const AdminPrivateNetworkDetailEnvelope = z
  .object({
    object: z.literal('private_network'),
    attributes: z.object({ ...attributes, user: z.string().uuid(), nics: z.array(Nic) }),
  })
  .openapi('AdminPrivateNetworkDetail');

export function serializeAdminPrivateNetwork(
  row: PrivateNetworkRow,
): z.infer<typeof AdminPrivateNetworkEnvelope> {
  const { object, attributes } = serializePrivateNetwork(row);
  return { object, attributes: { ...attributes, user: row.user_id } };
}

export function serializeAdminPrivateNetworkDetail(
  row: PrivateNetworkRow,
  nics: readonly NicRow[],
): z.infer<typeof AdminPrivateNetworkDetailEnvelope> {
  const { object, attributes } = serializePrivateNetworkDetail(row, nics);
  return { object, attributes: { ...attributes, user: row.user_id } };
}
