import type { Generated } from 'kysely';
import type { Virtualization } from '../../domain/catalog.js';
import type { Timestamp } from './columns.js';

export interface ImagesTable {
  id: Generated<string>;
  code: string;
  name: string;
  os_family: string;
  min_disk_mb: Generated<number>;
  is_public: Generated<boolean>;
  virtualization: Generated<Virtualization>;
  created_at: Timestamp;
}
