import { createHash } from 'node:crypto';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { type RequestOptions, request } from 'node:https';
import { promises as streams } from 'node:stream';
import type { z } from 'zod';
import { DriverFailure } from '../../driver.js';
import type { IncomingPorts, QemuIncoming } from '../guests/state.js';
import { type PasswordHandoff, PasswordHandoffBody } from './transfer-bodies.js';
import { type MoveKey, moveKey, pullerTls } from './transport.js';

// The target's side of the migration listener: what it pulls from the source, and what it tells
// it, each over TLS under the move's transport key (transport.ts).

/** The source as the target reaches it: where it offers the move (its endpoint) and the move's key. */
export interface Source extends MoveKey {
  readonly endpoint: string;
}

/** The source at `endpoint` (redeemed for a disk of the move), under the key this target keeps for it. */
export const sourceAt = (migrationId: string, incoming: QemuIncoming, endpoint: string): Source => ({
  ...moveKey(migrationId, incoming.transport_secret),
  endpoint,
});

/**
 * The source's endpoint, refused if it is not one of ours for this move (an agent from before
 * moves were keyed offers `http:` with a secret in the path: refused too, before anything is sent).
 */
function parseEndpoint(source: Source): URL {
  let url: URL;
  try {
    url = new URL(source.endpoint);
  } catch {
    throw new DriverFailure('TRANSFER_ENDPOINT_UNKNOWN', 'the sender is not a QEMU hypervisor', false);
  }
  if (url.protocol !== 'https:' || url.pathname !== `/migrations/${source.migrationId}`)
    throw new DriverFailure('TRANSFER_ENDPOINT_UNKNOWN', 'the sender is not a QEMU hypervisor', false);
  return url;
}

/**
 * Why the source gave no answer. A handshake the source ended with an alert (EPROTO, or OpenSSL's
 * own codes) is the source refusing the move's key (a target with another, or a move it offers no
 * more): no retry mends that, as a 403 would not.
 */
const unanswered = (error: NodeJS.ErrnoException) =>
  error.code === 'EPROTO' || error.code?.startsWith('ERR_SSL_')
    ? new DriverFailure('TRANSFER_REFUSED', `the source refused the move’s key: ${error.message}`, false)
    : new DriverFailure('TRANSFER_FAILED', `the source did not answer: ${error.message}`, true);

/** A request to the source (at `url`, its parsed endpoint) under the move's key, on a connection of its own. */
const requestOf = (
  source: Source,
  url: URL,
  path: string,
  options: RequestOptions,
  answered: (res: IncomingMessage) => void,
) => request(`${url.href}/${path}`, { ...options, ...pullerTls(source), agent: false }, answered);

/**
 * Pulls a disk from the source into `target` (by way of a partial file), hashing it on the way;
 * refused unless what arrived is what the source says it sent. Returns the checksum.
 */
export async function pullDisk(
  source: Source,
  target: string,
  signal: AbortSignal,
  /** What the source serves it as: its root disk, or `volumes/<volume id>`. */
  resource = 'disk',
): Promise<string> {
  const url = parseEndpoint(source);
  const partial = `${target}.partial`;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = requestOf(source, url, resource, { method: 'GET', signal }, resolve);
    req.once('error', reject);
    req.end();
  }).catch((error: NodeJS.ErrnoException) => {
    throw unanswered(error);
  });
  if (response.statusCode !== 200) {
    response.resume();
    throw new DriverFailure('TRANSFER_REFUSED', `the source answered ${response.statusCode}`, false);
  }
  const announced = String(response.headers['x-checksum'] ?? '');
  const hash = createHash('sha256');
  response.on('data', (chunk: Buffer) => hash.update(chunk));
  try {
    await streams.pipeline(response, createWriteStream(partial), { signal });
  } catch (error) {
    rmSync(partial, { force: true });
    throw new DriverFailure('TRANSFER_FAILED', `the transfer broke off: ${(error as Error).message}`, true);
  }
  const checksum = hash.digest('hex');
  if (checksum !== announced) {
    rmSync(partial, { force: true });
    throw new DriverFailure('DISK_CHECKSUM_MISMATCH', 'the disk arrived different from what was sent', true);
  }
  renameSync(partial, target);
  return checksum;
}

/** Tells the source where the target's waiting guest listens (for `migration.live`). */
export async function announceIncoming(source: Source, ports: IncomingPorts): Promise<void> {
  const url = parseEndpoint(source);
  const body = JSON.stringify(ports);
  const status = await new Promise<number>((resolve, reject) => {
    const req = requestOf(
      source,
      url,
      'incoming',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('error', reject);
    req.end(body);
  }).catch((error: NodeJS.ErrnoException) => {
    throw unanswered(error);
  });
  if (status !== 204) throw new DriverFailure('TRANSFER_REFUSED', `the source answered ${status}`, false);
}

/**
 * Fetches one of the source's handoffs (`password`, `setup`), at most `maxLength` characters of
 * JSON read as `schema`; a source whose agent predates it answers 404: then `absent`.
 */
export async function pullHandoff<T>(
  source: Source,
  what: 'password' | 'setup',
  { schema, maxLength, absent }: { schema: z.ZodType<T>; maxLength: number; absent: T },
  signal: AbortSignal,
): Promise<T> {
  const url = parseEndpoint(source);
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = requestOf(source, url, what, { method: 'GET', signal }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.length > maxLength) res.destroy(new Error('the answer is too long'));
      });
      res.once('error', reject);
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.once('error', reject);
    req.end();
  }).catch((error: NodeJS.ErrnoException) => {
    throw unanswered(error);
  });
  if (status === 404) return absent;
  if (status !== 200) throw new DriverFailure('TRANSFER_REFUSED', `the source answered ${status}`, false);
  let parsed: ReturnType<typeof schema.safeParse>;
  try {
    parsed = schema.safeParse(JSON.parse(body));
  } catch {
    parsed = schema.safeParse(undefined);
  }
  if (!parsed.success)
    throw new DriverFailure('TRANSFER_REFUSED', `the source’s ${what} handoff is malformed`, false);
  return parsed.data;
}

/** The guest's password handoff from the source (see PasswordHandoffBody). */
export const pullPasswordHandoff = (source: Source, signal: AbortSignal): Promise<PasswordHandoff> =>
  pullHandoff(
    source,
    'password',
    {
      schema: PasswordHandoffBody,
      maxLength: 4096,
      absent: { first_boot_hash: null, pending_reset: null, password_key: null },
    },
    signal,
  );
