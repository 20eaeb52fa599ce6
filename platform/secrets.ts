import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../domain/events/endpoints.js';

/**
 * Secrets at rest and in workflow histories are sealed: AES-256-GCM under SECRETS_KEY, written as
 * `sealed:v1:<iv>.<tag>.<ciphertext>` (base64url). A sealed value may travel through a workflow's
 * input, an activity result and an agent task row; only the API opens it, when it hands the task
 * to the agent that needs it, or shows the password to its owner once.
 */
const PREFIX = 'sealed:v1:';

export class SecretsKeyMissing extends Error {
  constructor() {
    super('SECRETS_KEY is not set: 32 random bytes, base64 (openssl rand -base64 32)');
  }
}

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function secretBox(base64Key: string | undefined): SecretBox {
  const key = () => {
    if (!base64Key) throw new SecretsKeyMissing();
    const bytes = Buffer.from(base64Key, 'base64');
    if (bytes.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes, base64-encoded');
    return bytes;
  };
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key(), iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${PREFIX}${[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.')}`;
    },
    open(sealed) {
      if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed value');
      const [iv, tag, body] = sealed
        .slice(PREFIX.length)
        .split('.')
        .map((p) => Buffer.from(p, 'base64url'));
      if (!iv || !tag || !body) throw new Error('malformed sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key(), iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
  };
}

const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(PREFIX);

/** A copy of task parameters with every sealed string opened: what the agent receives. */
export function openSealedParams(box: SecretBox, params: Record<string, unknown>): Record<string, unknown> {
  const open = (value: unknown): unknown => {
    if (isSealed(value)) return box.open(value);
    if (Array.isArray(value)) return value.map(open);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, open(v)]));
    return value;
  };
  return open(params) as Record<string, unknown>;
}

/** A root password: 20 characters from an alphabet without look-alikes, 116 bits. */
export function generatePassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(40);
  let out = '';
  for (const byte of bytes) {
    // Rejection sampling keeps every character equally likely.
    if (byte >= 256 - (256 % alphabet.length)) continue;
    out += alphabet[byte % alphabet.length];
    if (out.length === 20) return out;
  }
  return out + generatePassword().slice(0, 20 - out.length);
}

/** A webhook endpoint's signing secret, as Standard Webhooks writes it: `whsec_` and 32 random bytes, base64. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}
