import { TRANSPORT_KEY } from '../../domain/migrations/transport.js';
import { DriverFailure } from './driver.js';

/**
 * The move's transport key from a task (opened by the panel as it handed the task over), or the
 * failure a move without one ends in: every driver carries a move only under its key, and a run
 * begun before moves were keyed rolls back (it fails before the point of no return).
 */
export function transportKeyOf(p: { transport_secret?: string | undefined }): string {
  if (!p.transport_secret)
    throw new DriverFailure(
      'TRANSPORT_UNKEYED',
      'the task carries no transport key: the move cannot be carried encrypted',
      false,
    );
  if (!TRANSPORT_KEY.test(p.transport_secret))
    throw new DriverFailure('TRANSPORT_UNKEYED', 'the task’s transport key is malformed', false);
  return p.transport_secret;
}
