import type { Generated } from 'kysely';
import type { NicState } from '../../../domain/networks/private-networks.js';
import type { Timestamp } from '../columns.js';

// Customers' private networks and their instances' NICs on them.

export interface PrivateNetworksTable {
  id: Generated<string>;
  user_id: string;
  location_id: string;
  name: string;
  /** IPv4, canonical (network address and prefix). */
  cidr: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PrivateNetworkNicsTable {
  id: Generated<string>;
  network_id: string;
  instance_id: string;
  address: string;
  mac: string;
  state: NicState;
  created_at: Timestamp;
  updated_at: Timestamp;
}
