import type { Generated } from 'kysely';
import type { Virtualization } from '../../../domain/catalog.js';
import type { ImageRemovalState } from '../../../domain/image-removals.js';
import type { ChecksumAlgorithm, ImageFormat, ImageHostState } from '../../../domain/image-versions.js';
import type { NullableJson, NullableTimestamp, Timestamp } from '../columns.js';

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

export interface ImageVersionsTable {
  id: string;
  image_id: string;
  /** 1, 2, … per image, in the order they were added. */
  version: number;
  url: string;
  checksum_algorithm: ChecksumAlgorithm;
  checksum: string;
  format: ImageFormat;
  /** Since when new orders no longer take it; instances made from it are untouched. */
  deprecated_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface ImageVersionLocationsTable {
  image_version_id: string;
  location_id: string;
}

export interface ImageVersionHostsTable {
  image_version_id: string;
  hypervisor_id: string;
  state: ImageHostState;
  size_mb: number | null;
  /** Why its fetch failed: the agent's code and message. */
  error: NullableJson<{ code: string; message: string }>;
  /** The workflow id of the run fetching it (a distribution or a hypervisor's catch-up), while `fetching`. */
  fetch_run: string | null;
  updated_at: Timestamp;
}

/** A deleted version's copy still to be removed from a hypervisor (or removed, and when). */
export interface ImageCopyRemovalsTable {
  image_version_id: string;
  image_id: string;
  version: number;
  hypervisor_id: string;
  state: ImageRemovalState;
  /** Why its last removal did not happen: the agent's (or the step's) code and message. */
  error: NullableJson<{ code: string; message: string }>;
  /** How many times its hypervisor was asked to remove it. */
  attempts: Generated<number>;
  requested_at: Timestamp;
  updated_at: Timestamp;
  removed_at: NullableTimestamp;
}
