import type { StorageMoveFilters } from '../../db/repositories/moves/storage-move-reads.js';
import { STORAGE_MOVE_STATES } from '../../domain/storage-moves/states.js';
import { z } from '../zod.js';

/** The filters of the storage moves list, as the admin API's query takes them. */
export const storageMoveFilterFields = {
  state: z.enum(STORAGE_MOVE_STATES).optional(),
  instance: z.string().uuid().optional().openapi({ description: 'Storage moves of this instance.' }),
  hypervisor: z.string().uuid().optional().openapi({ description: 'Storage moves on this hypervisor.' }),
};

export type StorageMoveFilterQuery = {
  [K in keyof typeof storageMoveFilterFields]?: z.infer<(typeof storageMoveFilterFields)[K]>;
};

export const storageMoveFiltersOf = ({
  state,
  instance,
  hypervisor,
}: StorageMoveFilterQuery): StorageMoveFilters => ({
  ...(state ? { state } : {}),
  ...(instance ? { instanceId: instance } : {}),
  ...(hypervisor ? { hypervisorId: hypervisor } : {}),
});
