import { uuidParam } from '../../../../wire/schemas.js';

/** The path of one snapshot of one instance. */
export const snapshotParams = uuidParam('cloudInstance').extend(uuidParam('cloudSnapshot').shape);
