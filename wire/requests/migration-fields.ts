import { z } from '../zod.js';

/** A migration's request field of its own; those of every move are in move-fields.ts. */
export const targetHypervisor = z
  .string()
  .uuid()
  .optional()
  .openapi({ description: 'Omitted: the best candidate of the preflight.' });
