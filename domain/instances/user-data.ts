/**
 * A customer's own cloud-init user-data (docs/api.md "User-data"): a cloud-config or a script,
 * given to the guest beside the panel's own data, which keeps the last word (docs/qemu.md "The
 * customer's user-data"). The bound is on the decoded bytes, what the guest receives.
 */
export const USER_DATA_MAX_BYTES = 32_768;

/** `cloud-config`: a document whose first line is `#cloud-config`; `script`: one starting `#!`. */
export const USER_DATA_KINDS = ['cloud-config', 'script'] as const;
export type UserDataKind = (typeof USER_DATA_KINDS)[number];

/**
 * The longest `user_data` a request may carry: the bound's base64 (43,692 characters) with a CRLF
 * every 76 characters, rounded up. Past it the body is refused before anything is decoded.
 */
export const USER_DATA_MAX_ENCODED = 45_000;

/**
 * What travels to the hypervisor: the kind and the content. The panel seals the content
 * (platform/secrets.ts) in workflow inputs and task rows, which makes it about 4/3 longer.
 */
export const USER_DATA_MAX_SEALED = 65_536;

/** The kind a decoded user-data is, by its first line; undefined: neither (cloud-init would ignore it). */
export function userDataKind(text: string): UserDataKind | undefined {
  if (text.startsWith('#!')) return 'script';
  const firstLine = text.split('\n', 1)[0]!.replace(/[ \t\r]+$/, '');
  return firstLine === '#cloud-config' ? 'cloud-config' : undefined;
}
