import type { Generated } from 'kysely';
import type { AddressState } from '../../domain/networks/addresses.js';
import type { Timestamp } from './columns.js';

export interface IpAddressesTable {
  id: Generated<string>;
  pool_id: string;
  address: string;
  kind: Generated<'fixed' | 'floating'>;
  user_id: string | null;
  instance_id: string | null;
  is_primary: Generated<boolean>;
  rdns: string | null;
  state: Generated<AddressState>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
