import { hostname } from '../instances/settings.js';

/**
 * A reverse DNS name (the PTR record of one address): a hostname of at least two labels, kept in
 * lower case. An IPv6 address has a record of its own, like every address.
 */
export const reverseName = hostname
  .refine((value) => value.includes('.'), { message: 'Must be a fully qualified name: at least two labels.' })
  .transform((value) => value.toLowerCase());
