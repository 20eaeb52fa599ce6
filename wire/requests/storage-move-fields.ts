import { STORAGE_BACKENDS } from '../../domain/hypervisors.js';
import { z } from '../zod.js';
import { moveMode } from './move-fields.js';

/** The backends and mode of a storage move, as its preflight and its request take them. */
export const storageMoveFields = {
  from_backend: z
    .enum(STORAGE_BACKENDS)
    .openapi({ description: 'Where the disks are: those on it move.', example: 'local' }),
  to_backend: z
    .enum(STORAGE_BACKENDS)
    .openapi({ description: 'Where they go: a backend the instance’s hypervisor reaches.', example: 'nfs' }),
  mode: moveMode,
};
