import type { Context } from 'hono';
import { z } from 'zod';
import { notFound } from '../../domain/errors.js';
import type { PageEnv } from './context.js';

const uuid = z.string().uuid();

/** The migration of the page's path; a path id that is not a uuid is the same 404 as an unknown one. */
export function migrationParam(c: Context<PageEnv>): string {
  const id = c.req.param('migration');
  if (!uuid.safeParse(id).success) throw notFound();
  return id!;
}

/** The instance of the wizard's path, alike. */
export function instanceParam(c: Context<PageEnv>): string {
  const id = c.req.param('instance');
  if (!uuid.safeParse(id).success) throw notFound();
  return id!;
}
