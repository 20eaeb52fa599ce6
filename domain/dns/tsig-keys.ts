// An RFC 2136 DNS provider's credential: a TSIG key (RFC 8945), written as nsupdate's `-y` takes it,
// `[algorithm:]name:secret` with the secret in base64 (`hmac-sha256:panel-key:c2VjcmV0…`).

/** The HMACs the driver signs with (RFC 8945 §6: HMAC-SHA256 is mandatory to implement). */
export const TSIG_ALGORITHMS = ['hmac-sha256', 'hmac-sha512'] as const;

export interface TsigKey {
  /** The key's name, absolute and lower case: `panel-key.`. */
  readonly name: string;
  /** The algorithm's name as TSIG writes it: `hmac-sha256.`. */
  readonly algorithm: 'hmac-sha256.' | 'hmac-sha512.';
  readonly secret: Buffer;
}

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** The key a credential holds, or why it holds none (a sentence naming what is wrong, never the secret). */
export function parseTsigKey(credential: string): { ok: true; key: TsigKey } | { ok: false; detail: string } {
  const parts = credential.trim().split(':');
  if (parts.length < 2 || parts.length > 3)
    return { ok: false, detail: 'Must be a TSIG key as `[algorithm:]name:secret` (nsupdate -y).' };
  const [algorithm, name, secret] = parts.length === 3 ? parts : ['hmac-sha256', ...parts];
  if (!(TSIG_ALGORITHMS as readonly string[]).includes(algorithm!.toLowerCase()))
    return { ok: false, detail: `The algorithm must be one of ${TSIG_ALGORITHMS.join(', ')}.` };
  const absolute = (name!.endsWith('.') ? name! : `${name}.`).toLowerCase();
  if (
    absolute.length > 254 ||
    !absolute
      .slice(0, -1)
      .split('.')
      .every((l) => LABEL.test(l))
  )
    return { ok: false, detail: 'The key name must be a DNS name.' };
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(secret!) || secret!.length % 4 !== 0)
    return { ok: false, detail: 'The secret must be base64.' };
  const bytes = Buffer.from(secret!, 'base64');
  if (bytes.length < 16) return { ok: false, detail: 'The secret must be at least 16 bytes.' };
  return {
    ok: true,
    key: { name: absolute, algorithm: `${algorithm!.toLowerCase()}.` as TsigKey['algorithm'], secret: bytes },
  };
}
