import { createHash } from 'node:crypto';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { promises as streams } from 'node:stream';
import type { z } from 'zod';
import { DriverFailure } from '../../driver.js';
import type { IncomingPorts } from '../guests/state.js';
import { type PasswordHandoff, PasswordHandoffBody } from './transfer-bodies.js';

// The target's side of the migration listener: what it pulls from the source, and what it tells it.

/** The parts of a source's endpoint, refused if it is not one of ours. */
function parseEndpoint(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new DriverFailure('TRANSFER_ENDPOINT_UNKNOWN', 'the sender is not a QEMU hypervisor', false);
  }
  if (url.protocol !== 'http:' || !/^\/migrations\/[0-9a-f-]{36}\/[0-9a-f]{64}$/.test(url.pathname))
    throw new DriverFailure('TRANSFER_ENDPOINT_UNKNOWN', 'the sender is not a QEMU hypervisor', false);
  return url;
}

/**
 * Pulls a disk from the source into `target` (by way of a partial file), hashing it on the way;
 * refused unless what arrived is what the source says it sent. Returns the checksum.
 */
export async function pullDisk(
  endpoint: string,
  target: string,
  signal: AbortSignal,
  /** What the source serves it as: its root disk, or `volumes/<volume id>`. */
  resource = 'disk',
): Promise<string> {
  const url = parseEndpoint(endpoint);
  const partial = `${target}.partial`;
  const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
    const req = request(`${url.href}/${resource}`, { method: 'GET', signal }, resolve);
    req.once('error', reject);
    req.end();
  }).catch((error: Error) => {
    throw new DriverFailure('TRANSFER_FAILED', `the source did not answer: ${error.message}`, true);
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
export async function announceIncoming(endpoint: string, ports: IncomingPorts): Promise<void> {
  const url = parseEndpoint(endpoint);
  const body = JSON.stringify(ports);
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      `${url.href}/incoming`,
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
  }).catch((error: Error) => {
    throw new DriverFailure('TRANSFER_FAILED', `the source did not answer: ${error.message}`, true);
  });
  if (status !== 204) throw new DriverFailure('TRANSFER_REFUSED', `the source answered ${status}`, false);
}

/**
 * Fetches one of the source's handoffs (`password`, `setup`), at most `maxLength` characters of
 * JSON read as `schema`; a source whose agent predates it answers 404: then `absent`.
 */
export async function pullHandoff<T>(
  endpoint: string,
  what: 'password' | 'setup',
  { schema, maxLength, absent }: { schema: z.ZodType<T>; maxLength: number; absent: T },
  signal: AbortSignal,
): Promise<T> {
  const url = parseEndpoint(endpoint);
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${url.href}/${what}`, { method: 'GET', signal }, (res) => {
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
  }).catch((error: Error) => {
    throw new DriverFailure('TRANSFER_FAILED', `the source did not answer: ${error.message}`, true);
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
export const pullPasswordHandoff = (endpoint: string, signal: AbortSignal): Promise<PasswordHandoff> =>
  pullHandoff(
    endpoint,
    'password',
    {
      schema: PasswordHandoffBody,
      maxLength: 4096,
      absent: { first_boot_hash: null, pending_reset: null, password_key: null },
    },
    signal,
  );
