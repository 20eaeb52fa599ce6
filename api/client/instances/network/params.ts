import { uuidParam } from '../../../schemas.js';

/** The path of one address of one instance. */
export const addressParams = uuidParam('cloudInstance').extend(uuidParam('cloudIpAddress').shape);
