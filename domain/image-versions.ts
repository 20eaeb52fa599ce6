// An image's versions: disks the hypervisors of its locations fetch from a URL and verify against
// the checksum an administrator gave (docs/api.md "Image versions").

export const CHECKSUM_ALGORITHMS = ['sha256', 'sha512'] as const;
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];

/** Hex digits of each algorithm's digest, in lower case as the checksum is kept. */
export const CHECKSUM_HEX_LENGTH: Record<ChecksumAlgorithm, number> = { sha256: 64, sha512: 128 };

export const IMAGE_FORMATS = ['qcow2', 'raw'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/**
 * A hypervisor's copy of a version: `pending` until its fetch starts (a hypervisor offline then
 * stays pending until the version is distributed again), `fetching`, then `ready` once verified and
 * in its image store, or `failed` with the reason.
 */
export const IMAGE_HOST_STATES = ['pending', 'fetching', 'ready', 'failed'] as const;
export type ImageHostState = (typeof IMAGE_HOST_STATES)[number];

/**
 * The name of a version's directory in an agent's image store: its id, never reused, so a new
 * version never replaces the disk instances of an older one were made from.
 */
export const storeNameOf = (versionId: string) => versionId;

/** Whether `checksum` is a digest of `algorithm` (hex, either case); why not otherwise. */
export function checkChecksum(algorithm: ChecksumAlgorithm, checksum: string): { checksum: string } | string {
  const length = CHECKSUM_HEX_LENGTH[algorithm];
  if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(checksum))
    return `Must be the ${algorithm} digest in hex: ${length} hex digits.`;
  return { checksum: checksum.toLowerCase() };
}

/** A version of an image as an order sees it: which hypervisors (of the place ordered) hold it ready. */
export interface VersionCopies {
  readonly id: string;
  readonly version: number;
  readonly deprecated: boolean;
  readonly readyHypervisorIds: readonly string[];
}

/** What an order of an image writes its disk from: an image without versions, or one of its versions. */
export type ImageSource =
  | { readonly ok: true; readonly versionId: null; readonly storeName: string; readonly hypervisorIds: null }
  | {
      readonly ok: true;
      readonly versionId: string;
      readonly storeName: string;
      /** Placement picks only among these: the hypervisors that hold the version ready. */
      readonly hypervisorIds: readonly string[];
    };

/**
 * docs/api.md "Image versions": an image without versions is written from the files its code names
 * in each store, as before; one with versions is orderable where its newest version that is not
 * deprecated and is held ready by at least `minReady` hypervisors of the place is, and written from
 * that version on one of those hypervisors. None such: IMAGE_NOT_AVAILABLE.
 */
export function imageSourceFor(
  image: { readonly code: string },
  versions: readonly VersionCopies[],
  minReady: number,
): ImageSource | { ok: false; code: 'IMAGE_NOT_AVAILABLE'; detail: string } {
  if (versions.length === 0) return { ok: true, versionId: null, storeName: image.code, hypervisorIds: null };
  const chosen = [...versions]
    .sort((a, b) => b.version - a.version)
    .find((v) => !v.deprecated && v.readyHypervisorIds.length >= Math.max(1, minReady));
  if (!chosen)
    return {
      ok: false,
      code: 'IMAGE_NOT_AVAILABLE',
      detail: `No version of the image ${image.code} is ready here yet, or every one is deprecated.`,
    };
  return {
    ok: true,
    versionId: chosen.id,
    storeName: storeNameOf(chosen.id),
    hypervisorIds: chosen.readyHypervisorIds,
  };
}
