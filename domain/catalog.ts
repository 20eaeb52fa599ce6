/**
 * The catalogue instances are made from: locations, plans and images, each named by a code that
 * customers order by and agents find their images by. One set of rules for every API that takes them.
 */

/** Lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit; 1 to 64 characters. */
export const CATALOGUE_CODE = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const CATALOGUE_CODE_MESSAGE =
  'Must be a catalogue code: 1 to 64 lower-case letters, digits, . _ - (starting with a letter or digit)';

/** A catalogue entry's display name: 1 to 100 characters, trimmed. */
export const CATALOGUE_NAME_MAX = 100;

/** The operating system families an image may be of; the family decides the SSH login user (images.ts). */
export const OS_FAMILIES = [
  'debian',
  'ubuntu',
  'rocky',
  'alma',
  'centos',
  'fedora',
  'windows',
  'busybox',
  'other',
] as const;
export type OsFamily = (typeof OS_FAMILIES)[number];

/**
 * The sizes a plan may offer, each inclusive: from a guest that boots in a few megabytes to the
 * largest host a location is likely to hold.
 */
export const PLAN_BOUNDS = {
  cpu_cores: { min: 1, max: 512 },
  memory_mb: { min: 64, max: 16 * 1024 * 1024 },
  disk_mb: { min: 32, max: 64 * 1024 * 1024 },
} as const;

/** The smallest disk an image may ask for, and the largest (a plan's largest disk). */
export const IMAGE_MIN_DISK_BOUNDS = { min: 1, max: PLAN_BOUNDS.disk_mb.max } as const;

/**
 * The virtualization an image boots under, as hypervisors report theirs (migration preflight compares
 * them). Every agent runs QEMU with KVM or its software fallback, which the guest cannot tell apart.
 */
export const VIRTUALIZATIONS = ['kvm'] as const;
export type Virtualization = (typeof VIRTUALIZATIONS)[number];

/** What of the catalogue a caller may see and order: a customer the public entries, an administrator all. */
export type CatalogueReach = 'public' | 'all';
