import { generateKeyPairSync } from 'node:crypto';
import type { ProdShape } from '../support/prod-shape/shape.js';

/** A new ed25519 key as one authorized_keys line. */
export function sshKeyLine(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  return `ssh-ed25519 ${Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]).toString('base64')}`;
}

/** What a client that retries a write on a retryable failure saw of one write. */
export interface WriteTally {
  /** Writes answered 201, each with the key's id. */
  readonly acknowledged: string[];
  /** Writes whose first answer was a retryable failure, answered 201 or 409 (it had landed) on the retry. */
  retried: number;
  /** Answers neither a success nor a retryable failure, and retries that failed again. */
  readonly unexpected: string[];
}

/** A 502 or 503 from the proxy, or the connection ended under the request: the client may try again. */
const retryable = (answer: number | string) =>
  answer === 502 || answer === 503 || answer === 'connection ended';

/**
 * A customer adding SSH keys one after another until `until` resolves, as a careful client does:
 * a retryable failure is retried once with the same key (a 409 then says the first try landed).
 */
export async function addKeysUntil(shape: ProdShape, name: string, until: Promise<void>, tally: WriteTally) {
  let done = false;
  void until.then(() => {
    done = true;
  });
  for (let i = 0; !done; i++) {
    const body = { name: `${name}-${i}`, public_key: sshKeyLine() };
    const send = () =>
      shape.customer.POST('/ssh-keys', { body }).then(
        (r) => ({ status: r.response.status as number | string, id: r.data?.attributes.uuid }),
        () => ({ status: 'connection ended' as number | string, id: undefined }),
      );
    const first = await send();
    if (first.status === 201) {
      tally.acknowledged.push(first.id!);
      continue;
    }
    if (!retryable(first.status)) {
      tally.unexpected.push(`${body.name}: ${first.status}`);
      continue;
    }
    const again = await send();
    if (again.status === 201) tally.acknowledged.push(again.id!);
    if (again.status === 201 || again.status === 409) tally.retried += 1;
    else tally.unexpected.push(`${body.name}: ${first.status} then ${again.status}`);
  }
}
