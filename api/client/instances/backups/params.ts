import { uuidParam } from '../../../../wire/schemas.js';

/** The path of one backup of one instance. */
export const backupParams = uuidParam('cloudInstance').extend(uuidParam('cloudBackup').shape);
