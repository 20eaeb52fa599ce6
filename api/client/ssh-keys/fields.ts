import { text } from '../../../domain/input-bounds.js';

/** A key's name, as create and rename take it. */
export const sshKeyName = () => text({ max: 100, trim: true }).openapi({ example: 'laptop' });
