import { STORAGE_BACKENDS, type StorageBackend } from '../domain/hypervisors.js';
import { UsageError } from './command.js';

/** `--from` or `--to`: a storage backend's name. */
export function backendOption(value: string | undefined, option: 'from' | 'to'): StorageBackend {
  if (!value || !(STORAGE_BACKENDS as readonly string[]).includes(value))
    throw new UsageError(`--${option} must be one of ${STORAGE_BACKENDS.join(', ')}`);
  return value as StorageBackend;
}
