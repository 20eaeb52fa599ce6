import { ApiError } from '../../domain/errors.js';

/** The refusals that create and edit share, worded once. */
export const noSuchLocation = (): ApiError =>
  new ApiError('SVC-REQ-400', { fields: [{ field: 'location_uuid', detail: 'No such location.' }] });

export const duplicateName = (cause: unknown): ApiError =>
  new ApiError('SVC-CONFLICT-409', { detail: 'A hypervisor with this name exists.', cause });
