/** PostgreSQL SQLSTATE 23505: a unique constraint (`constraint`, when named: that one) refused the write. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    e.code === '23505' &&
    (constraint === undefined || e.constraint === constraint)
  );
}

/** PostgreSQL SQLSTATE 23503 on `constraint`: a row it refers to is gone (deleted meanwhile). */
export function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return typeof e === 'object' && e !== null && e.code === '23503' && e.constraint === constraint;
}

/**
 * PostgreSQL SQLSTATE 40P01: the server broke a deadlock by failing this statement. Two inserts that
 * an exclusion constraint refuses to hold together each wait for the other's transaction to end
 * before judging, and PostgreSQL may end that wait as a deadlock rather than refuse one of them
 * (measured: once in thirty pairs); the statement failed whole and can be tried again.
 */
export function isDeadlock(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '40P01';
}
