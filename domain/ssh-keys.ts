import { createHash, createPublicKey } from 'node:crypto';
import type { ErrorCode } from './errors.js';

/**
 * OpenSSH public keys as a customer pastes them (`<type> <base64 blob> [comment]`, one line of an
 * authorized_keys file without options). The blob is read in the SSH wire format (RFC 4253 §6.6,
 * RFC 5656 §3.1, RFC 8709): a key whose blob names another type than the line, whose fields do
 * not parse, or that carries trailing bytes is refused, so what reaches a guest is a key sshd loads.
 */

export const SSH_KEY_TYPES = [
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'ssh-rsa',
] as const;
export type SshKeyType = (typeof SSH_KEY_TYPES)[number];

/** RSA below 2048 bits is factorable within reach (NIST SP 800-131A); above 16384 no client makes them. */
export const MIN_RSA_BITS = 2048;
export const MAX_RSA_BITS = 16384;

/** An authorized_keys line: an RSA key of 16384 bits with a comment fits comfortably. */
export const MAX_PUBLIC_KEY_LENGTH = 8192;

export interface SshPublicKey {
  readonly type: SshKeyType;
  readonly bits: number;
  /** `SHA256:<base64 without padding>` of the blob, as `ssh-keygen -l` prints it. */
  readonly fingerprint: string;
  /** The key as stored and shown: type, blob and comment separated by single spaces. */
  readonly publicKey: string;
  readonly comment: string;
}

export type SshKeyVerdict =
  | { readonly ok: true; readonly key: SshPublicKey }
  | { readonly ok: false; readonly code: ErrorCode; readonly detail: string };

const ACCEPTED = 'Accepted: ssh-ed25519, ecdsa-sha2-nistp256/384/521, and ssh-rsa of at least 2048 bits.';

const CURVES = {
  'ecdsa-sha2-nistp256': { name: 'nistp256', jwk: 'P-256', bits: 256, coordinateBytes: 32 },
  'ecdsa-sha2-nistp384': { name: 'nistp384', jwk: 'P-384', bits: 384, coordinateBytes: 48 },
  'ecdsa-sha2-nistp521': { name: 'nistp521', jwk: 'P-521', bits: 521, coordinateBytes: 66 },
} as const;

const refuse = (detail: string): SshKeyVerdict => ({ ok: false, code: 'SVC-REQ-400', detail });

export function parseSshPublicKey(line: string): SshKeyVerdict {
  const match = /^(\S+) +(\S+)(?: +(.*))?$/.exec(line.trim());
  if (!match) return refuse(`Must be an OpenSSH public key: "<type> <base64> [comment]". ${ACCEPTED}`);
  const [, declared, encoded, rawComment] = match as unknown as [string, string, string, string | undefined];
  if (declared === 'ssh-dss') return refuse(`DSA keys are not accepted. ${ACCEPTED}`);
  if (!(SSH_KEY_TYPES as readonly string[]).includes(declared)) {
    return refuse(`Unsupported key type. ${ACCEPTED}`);
  }
  const type = declared as SshKeyType;

  // Only canonical base64: a blob with stray characters or bits is not one ssh-keygen wrote.
  const blob = Buffer.from(encoded, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || blob.toString('base64') !== encoded) {
    return refuse('The key data is not valid base64.');
  }

  let bits: number;
  try {
    bits = readKeyBlob(type, blob);
  } catch (error) {
    if (error instanceof MalformedKey) return refuse(error.message);
    throw error;
  }
  if (type === 'ssh-rsa' && bits < MIN_RSA_BITS) {
    return refuse(`RSA keys must have at least ${MIN_RSA_BITS} bits; this one has ${bits}.`);
  }
  if (type === 'ssh-rsa' && bits > MAX_RSA_BITS) {
    return refuse(`RSA keys may have at most ${MAX_RSA_BITS} bits.`);
  }

  const comment = rawComment?.trim() ?? '';
  return {
    ok: true,
    key: {
      type,
      bits,
      fingerprint: sshFingerprint(blob),
      publicKey: comment ? `${type} ${encoded} ${comment}` : `${type} ${encoded}`,
      comment,
    },
  };
}

function sshFingerprint(blob: Uint8Array): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

class MalformedKey extends Error {}

/** Reads the blob's fields in order and returns the key size in bits; throws MalformedKey. */
function readKeyBlob(type: SshKeyType, blob: Buffer): number {
  const reader = new WireReader(blob);
  if (reader.string().toString('latin1') !== type) {
    throw new MalformedKey('The key data is of another type than the one the key names.');
  }
  let bits: number;
  if (type === 'ssh-ed25519') {
    if (reader.string().length !== 32) throw new MalformedKey('The ed25519 key data is malformed.');
    bits = 256;
  } else if (type === 'ssh-rsa') {
    const exponent = reader.mpint();
    const modulus = reader.mpint();
    if (exponent.length === 0 || exponent.length > 8 || (exponent.at(-1)! & 1) === 0 || isOne(exponent)) {
      throw new MalformedKey('The RSA public exponent is not valid.');
    }
    bits = bitLength(modulus);
    if (bits < 512 || (modulus.at(-1)! & 1) === 0) throw new MalformedKey('The RSA modulus is not valid.');
    assertImportable({ kty: 'RSA', n: modulus.toString('base64url'), e: exponent.toString('base64url') });
  } else {
    const curve = CURVES[type];
    if (reader.string().toString('latin1') !== curve.name) {
      throw new MalformedKey('The ECDSA curve in the key data does not match the key type.');
    }
    // Uncompressed point (SEC 1 §2.3.3), as OpenSSH writes it.
    const point = reader.string();
    if (point.length !== 1 + 2 * curve.coordinateBytes || point[0] !== 0x04) {
      throw new MalformedKey('The ECDSA public point is malformed.');
    }
    const x = point.subarray(1, 1 + curve.coordinateBytes);
    const y = point.subarray(1 + curve.coordinateBytes);
    assertImportable({ kty: 'EC', crv: curve.jwk, x: x.toString('base64url'), y: y.toString('base64url') });
    bits = curve.bits;
  }
  if (!reader.atEnd()) throw new MalformedKey('The key data has trailing bytes.');
  return bits;
}

/** The point is on its curve, the modulus and exponent form a key: what OpenSSL accepts. */
function assertImportable(jwk: Record<string, string>): void {
  try {
    createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw new MalformedKey('The key data does not hold a valid public key.');
  }
}

/** A positive mpint without its sign byte; a negative one, or one with padding, is refused. */
function unsigned(mpint: Buffer): Buffer {
  if (mpint.length === 0) return mpint;
  if (mpint[0]! & 0x80) throw new MalformedKey('The key data holds a negative number.');
  if (mpint[0] === 0) {
    if (mpint.length === 1 || !(mpint[1]! & 0x80)) throw new MalformedKey('The key data is not canonical.');
    return mpint.subarray(1);
  }
  return mpint;
}

function bitLength(value: Buffer): number {
  if (value.length === 0) return 0;
  return (value.length - 1) * 8 + (32 - Math.clz32(value[0]!));
}

const isOne = (value: Buffer) => value.length === 1 && value[0] === 1;

class WireReader {
  private offset = 0;
  constructor(private readonly data: Buffer) {}

  string(): Buffer {
    if (this.offset + 4 > this.data.length) throw new MalformedKey('The key data is truncated.');
    const length = this.data.readUInt32BE(this.offset);
    const start = this.offset + 4;
    if (length > this.data.length - start) throw new MalformedKey('The key data is truncated.');
    this.offset = start + length;
    return this.data.subarray(start, this.offset);
  }

  mpint(): Buffer {
    return unsigned(this.string());
  }

  atEnd(): boolean {
    return this.offset === this.data.length;
  }
}
