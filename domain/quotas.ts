/**
 * Per-user quotas (issue 48 item 5): what an administrator lets one customer hold at most, each
 * resource unlimited until set. Usage is what the customer holds now: instances not deleted with
 * their own size (a grown root disk counts as grown), volumes, and addresses of either family,
 * floating IPs included. Disk is root disks and volumes together.
 */
export const QUOTA_RESOURCES = ['instances', 'cpu_cores', 'memory_mb', 'disk_mb', 'volumes', 'ips'] as const;

export type QuotaResource = (typeof QUOTA_RESOURCES)[number];

/** The most of each resource a user may hold; null is unlimited. */
export type QuotaLimits = Readonly<Record<QuotaResource, number | null>>;

/** What a user holds of each resource. */
export type QuotaUsage = Readonly<Record<QuotaResource, number>>;

/** What an order adds (or, negative, gives back); a resource it leaves out is unchanged. */
export type QuotaDelta = Readonly<Partial<Record<QuotaResource, number>>>;

export const UNLIMITED: QuotaLimits = {
  instances: null,
  cpu_cores: null,
  memory_mb: null,
  disk_mb: null,
  volumes: null,
  ips: null,
};

/** Whether any resource is limited at all: an unlimited user's usage need not be counted. */
export const anyLimit = (limits: QuotaLimits): boolean => QUOTA_RESOURCES.some((r) => limits[r] !== null);

const UNITS: Record<QuotaResource, string> = {
  instances: 'instances',
  cpu_cores: 'vCPUs',
  memory_mb: 'MB of memory',
  disk_mb: 'MB of disk',
  volumes: 'volumes',
  ips: 'IP addresses',
};

export interface QuotaExceeded {
  readonly resource: QuotaResource;
  readonly limit: number;
  readonly usage: number;
  readonly requested: number;
}

export type QuotaVerdict =
  | { ok: true }
  | { ok: false; code: 'QUOTA_EXCEEDED'; detail: string; exceeded: QuotaExceeded };

/**
 * Does an order fit the user's limits: for each resource it grows, usage plus the growth at most
 * the limit. What an order shrinks or leaves alone is never refused, so a user above a limit an
 * administrator lowered can still give back (a resize down, a delete) but not grow. The first
 * resource over its limit, in QUOTA_RESOURCES order, is the one named.
 */
export function withinQuotas(limits: QuotaLimits, usage: QuotaUsage, delta: QuotaDelta): QuotaVerdict {
  for (const resource of QUOTA_RESOURCES) {
    const requested = delta[resource] ?? 0;
    const limit = limits[resource];
    if (requested <= 0 || limit === null) continue;
    const held = usage[resource];
    if (held + requested > limit)
      return {
        ok: false,
        code: 'QUOTA_EXCEEDED',
        detail:
          `The account may hold at most ${limit} ${UNITS[resource]} and holds ${held}; this needs ` +
          `${requested} more. Free some, or ask the provider to raise the limit.`,
        exceeded: { resource, limit, usage: held, requested },
      };
  }
  return { ok: true };
}
