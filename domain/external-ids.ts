/**
 * A billing system's own id for a user or an instance (docs/api.md "External references"): 1 to
 * 191 visible ASCII characters (U+0021 to U+007E), so no space, control character or anything a
 * terminal, a log line or a URL could render two ways. 191 is what a utf8mb4 index of MySQL, where
 * most billing systems keep their ids, holds. Case matters: `A1` and `a1` are two ids.
 */
export const EXTERNAL_ID_MAX = 191;
export const EXTERNAL_ID = /^[\x21-\x7e]+$/;
export const EXTERNAL_ID_MESSAGE = `Must be 1 to ${EXTERNAL_ID_MAX} visible ASCII characters (no spaces).`;
