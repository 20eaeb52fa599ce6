import { createHash } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { dirname } from 'node:path';
import type { AgentTaskParams } from '../../domain/agent-tasks.js';
import { mayFetchFrom } from '../../domain/media/iso-sources.js';
import { DriverFailure } from '../drivers/driver.js';

const MIB = 1024 * 1024;
/** How long a fetch may wait for an answer, and for its next bytes. */
const IDLE_TIMEOUT_MS = 60_000;

type FetchParams = Pick<AgentTaskParams<'iso.fetch'>, 'url' | 'max_mb' | 'allowed_networks'>;

/**
 * Resolves the host as the system does, and lets the connection go only to an address the
 * policy takes: checked here, at connect time, so a name that resolves otherwise later (DNS
 * rebinding) never reaches a refused address.
 */
function checkedLookup(allowedNetworks: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.filter((a) => mayFetchFrom(a.address, allowedNetworks));
      if (allowed.length === 0 || allowed.length !== addresses.length)
        return callback(
          Object.assign(new Error(`${hostname} resolves to an address ISOs are not fetched from`), {
            code: 'ISO_ADDRESS_REFUSED',
          }),
          '',
          0,
        );
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

function answer(params: FetchParams, signal: AbortSignal): Promise<IncomingMessage> {
  const url = new URL(params.url);
  // A host given as an address is connected to without a lookup: checked here instead.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !mayFetchFrom(literal, params.allowed_networks))
    return Promise.reject(
      new DriverFailure('ISO_ADDRESS_REFUSED', `${literal} is an address ISOs are not fetched from`, false),
    );
  const get = url.protocol === 'https:' ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      { lookup: checkedLookup(params.allowed_networks), signal, timeout: IDLE_TIMEOUT_MS },
      resolve,
    );
    request.on('timeout', () =>
      request.destroy(new DriverFailure('ISO_FETCH_TIMEOUT', 'the ISO’s server stopped answering', true)),
    );
    request.on('error', (error: Error & { code?: string }) =>
      reject(
        error instanceof DriverFailure
          ? error
          : error.code === 'ISO_ADDRESS_REFUSED'
            ? new DriverFailure('ISO_ADDRESS_REFUSED', error.message, false)
            : new DriverFailure('ISO_FETCH_FAILED', `the ISO could not be fetched: ${error.message}`, true),
      ),
    );
  });
}

/** Where a fetch writes before its file is complete. */
const partialOf = (target: string) => `${target}.partial`;

/**
 * Removes the ISO's file and what a fetch cut off by a crash left beside it; whether there was
 * anything to remove.
 */
export function removeIsoFile(target: string): boolean {
  const held = [target, partialOf(target)].filter((file) => existsSync(file));
  for (const file of held) rmSync(file, { force: true });
  return held.length > 0;
}

/**
 * Fetches the ISO at `params.url` into `target` (written beside it and renamed in, so a fetch cut
 * off never passes for an ISO), hashing it on the way; at most `max_mb`. No redirect is followed:
 * its target would not have been checked.
 */
export async function fetchIso(
  params: FetchParams,
  target: string,
  signal: AbortSignal,
): Promise<{ size_mb: number; sha256: string }> {
  const response = await answer(params, signal);
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    response.resume();
    throw new DriverFailure(
      'ISO_REDIRECTED',
      `the ISO’s URL redirects (${status}); give the URL it redirects to`,
      false,
    );
  }
  if (status !== 200) {
    response.resume();
    throw new DriverFailure(
      'ISO_FETCH_FAILED',
      `the ISO’s server answered ${status}`,
      status >= 500 || status === 429,
    );
  }
  const maxBytes = params.max_mb * MIB;
  const declared = Number(response.headers['content-length'] ?? Number.NaN);
  if (declared > maxBytes) {
    response.destroy();
    throw new DriverFailure('ISO_TOO_LARGE', `the ISO is larger than ${params.max_mb} MB`, false);
  }
  mkdirSync(dirname(target), { recursive: true });
  const partial = partialOf(target);
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(partial);
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          response.destroy();
          out.destroy();
          reject(new DriverFailure('ISO_TOO_LARGE', `the ISO is larger than ${params.max_mb} MB`, false));
          return;
        }
        hash.update(chunk);
        if (!out.write(chunk)) {
          response.pause();
          out.once('drain', () => response.resume());
        }
      });
      response.on('end', () => out.end());
      response.on('error', (error) =>
        reject(new DriverFailure('ISO_FETCH_FAILED', `the ISO’s download broke off: ${error.message}`, true)),
      );
      out.on('finish', resolve);
      out.on('error', reject);
    });
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { size_mb: Math.ceil(bytes / MIB), sha256: hash.digest('hex') };
}
