import type { ColumnType } from 'kysely';

/** Column types as the `pg` driver returns them; kept by hand beside db/migrations/. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;
export type Json<T> = ColumnType<T, string, string>;
export type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;
/** bigint columns come back as strings from pg (no precision lost). */
export type BigIntColumn = ColumnType<string, number | bigint | string, number | bigint | string>;
