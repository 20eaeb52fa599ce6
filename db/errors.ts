/** PostgreSQL SQLSTATE 23505: a unique constraint refused the write. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** PostgreSQL SQLSTATE 23503 on `constraint`: a row it refers to is gone (deleted meanwhile). */
export function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return typeof e === 'object' && e !== null && e.code === '23503' && e.constraint === constraint;
}
