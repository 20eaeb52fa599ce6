import { createHash, randomBytes } from 'node:crypto';

/**
 * Credential types (DESIGN.md "Credentials"). Each has its own prefix, so a token says which
 * type it claims to be before any lookup, and a key of one type is refused by every other API.
 */
export const CREDENTIAL_PREFIXES = {
  client: 'csc_',
  application: 'csa_',
  agent: 'csg_',
  console_gateway: 'csw_',
  enrollment: 'cse_',
} as const;

export type CredentialType = keyof typeof CREDENTIAL_PREFIXES;

export const CREDENTIAL_TYPES = Object.keys(CREDENTIAL_PREFIXES) as CredentialType[];

/** What each type is called in what a caller reads. */
const CREDENTIAL_NAMES: Record<CredentialType, string> = {
  client: 'a client key',
  application: 'an application key',
  agent: 'an agent credential',
  console_gateway: 'a console-gateway credential',
  enrollment: 'an enrollment token',
};

const described = (type: CredentialType) => `${CREDENTIAL_NAMES[type]} (${CREDENTIAL_PREFIXES[type]}…)`;

/**
 * The 403 of a valid credential of another type says which type the API takes, so a caller who
 * holds both kinds knows which to send (the 403 already tells a valid key from an unknown one).
 */
export function wrongCredentialDetail(expected: CredentialType, presented: CredentialType): string {
  return `This API takes ${described(expected)}; this is ${described(presented)}.`;
}

export interface IssuedSecret {
  /** Shown to its owner once; never stored. */
  readonly token: string;
  readonly hash: string;
  /** A non-secret hint (prefix and first characters) to tell keys apart in listings. */
  readonly hint: string;
}

export function hashToken(token: string): string {
  // Tokens carry 256 random bits, so a fast hash is enough: there is nothing to brute-force.
  return createHash('sha256').update(token).digest('hex');
}

export function issueSecret(type: CredentialType): IssuedSecret {
  const token = `${CREDENTIAL_PREFIXES[type]}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token), hint: token.slice(0, CREDENTIAL_PREFIXES[type].length + 6) };
}

/** The type a presented token claims by its prefix, or undefined for anything else. */
export function claimedType(token: string): CredentialType | undefined {
  return CREDENTIAL_TYPES.find((type) => token.startsWith(CREDENTIAL_PREFIXES[type]));
}
