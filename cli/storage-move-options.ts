import { STORAGE_BACKENDS, type StorageBackend } from '../domain/hypervisors.js';
import { UsageError } from './command.js';

/** `--from` or `--to`: a storage backend's name. */
export function backendOption(value: string | undefined, option: 'from' | 'to'): StorageBackend {
  if (!value || !(STORAGE_BACKENDS as readonly string[]).includes(value))
    throw new UsageError(`--${option} must be one of ${STORAGE_BACKENDS.join(', ')}`);
  return value as StorageBackend;
}

/** `--from` and `--to`, as every command that moves disks between backends takes them. */
export const BACKEND_OPTIONS = { from: { type: 'string' }, to: { type: 'string' } } as const;

/** The two backends of such a command, each checked. */
export const backendsOf = (values: { from?: string | undefined; to?: string | undefined }) => ({
  from: backendOption(values.from, 'from'),
  to: backendOption(values.to, 'to'),
});
