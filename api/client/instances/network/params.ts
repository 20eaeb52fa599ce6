import { uuidParam } from '../../../../wire/schemas.js';

/** The path of one address of one instance. */
export const addressParams = uuidParam('cloudInstance').extend(uuidParam('cloudIpAddress').shape);
