import { createHash } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { dirname } from 'node:path';
import { mayFetchFrom } from '../../domain/media/iso-sources.js';
import { DriverFailure } from '../drivers/driver.js';

// The agent's one fetcher of a file from a URL (an ISO, an image's disk): SSRF-safe (every address
// it connects to checked at connect time), size-bounded, hashed on the way, written beside its
// target and renamed in only once whole.

const MIB = 1024 * 1024;
/** How long a fetch may wait for an answer, and for its next bytes. */
const IDLE_TIMEOUT_MS = 60_000;

export interface FetchSource {
  readonly url: string;
  readonly max_mb: number;
  readonly allowed_networks: readonly string[];
}

/** What is fetched: how its failures are named, how it is hashed, whether redirects are followed. */
export interface FetchKind {
  /** `ISO`, `image`: said in every message. */
  readonly noun: string;
  /** The failure codes' prefix: `ISO` gives `ISO_TOO_LARGE`, … */
  readonly codes: string;
  readonly algorithm: 'sha256' | 'sha512';
  /** How many redirects are followed, each checked as the URL was; 0: none (`<codes>_REDIRECTED`). */
  readonly maxRedirects: number;
}

const failure = (kind: FetchKind, code: string, message: string, retryable: boolean) =>
  new DriverFailure(`${kind.codes}_${code}`, message, retryable);

/**
 * Resolves the host as the system does, and lets the connection go only to an address the
 * policy takes: checked here, at connect time, so a name that resolves otherwise later (DNS
 * rebinding) never reaches a refused address.
 */
function checkedLookup(allowedNetworks: readonly string[], noun: string): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.filter((a) => mayFetchFrom(a.address, allowedNetworks));
      if (allowed.length === 0 || allowed.length !== addresses.length)
        return callback(
          Object.assign(new Error(`${hostname} resolves to an address ${noun}s are not fetched from`), {
            code: 'ADDRESS_REFUSED',
          }),
          '',
          0,
        );
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

function answer(
  url: URL,
  source: FetchSource,
  kind: FetchKind,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  // A host given as an address is connected to without a lookup: checked here instead.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !mayFetchFrom(literal, source.allowed_networks))
    return Promise.reject(
      failure(kind, 'ADDRESS_REFUSED', `${literal} is an address ${kind.noun}s are not fetched from`, false),
    );
  const get = url.protocol === 'https:' ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      { lookup: checkedLookup(source.allowed_networks, kind.noun), signal, timeout: IDLE_TIMEOUT_MS },
      resolve,
    );
    request.on('timeout', () =>
      request.destroy(failure(kind, 'FETCH_TIMEOUT', `the ${kind.noun}’s server stopped answering`, true)),
    );
    request.on('error', (error: Error & { code?: string }) =>
      reject(
        error instanceof DriverFailure
          ? error
          : error.code === 'ADDRESS_REFUSED'
            ? failure(kind, 'ADDRESS_REFUSED', error.message, false)
            : failure(kind, 'FETCH_FAILED', `the ${kind.noun} could not be fetched: ${error.message}`, true),
      ),
    );
  });
}

/**
 * The answer of the URL, through at most `kind.maxRedirects` redirects: each an http(s) URL, never
 * from https down to http, its addresses checked as the first one's.
 */
async function finalAnswer(
  source: FetchSource,
  kind: FetchKind,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  let url = new URL(source.url);
  for (let hops = 0; ; hops++) {
    const response = await answer(url, source, kind, signal).catch((error: unknown) => {
      if (hops > 0 && error instanceof DriverFailure && error.code === `${kind.codes}_ADDRESS_REFUSED`)
        throw failure(
          kind,
          'ADDRESS_REFUSED',
          `the ${kind.noun}’s URL redirects to ${url.host}: ${error.message}`,
          false,
        );
      throw error;
    });
    const status = response.statusCode ?? 0;
    if (status < 300 || status >= 400) return response;
    response.resume();
    if (hops >= kind.maxRedirects)
      throw failure(
        kind,
        'REDIRECTED',
        kind.maxRedirects === 0
          ? `the ${kind.noun}’s URL redirects (${status}); give the URL it redirects to`
          : `the ${kind.noun}’s URL redirects more than ${kind.maxRedirects} times`,
        false,
      );
    const next = new URL(response.headers.location ?? '', url);
    if (
      !['http:', 'https:'].includes(next.protocol) ||
      (url.protocol === 'https:' && next.protocol === 'http:')
    )
      throw failure(kind, 'REDIRECTED', `the ${kind.noun}’s URL redirects to a ${next.protocol} URL`, false);
    url = next;
  }
}

/** Where a fetch writes before its file is complete. */
export const partialOf = (target: string) => `${target}.partial`;

/**
 * Fetches `source.url` into `target` (written beside it and renamed in, so a fetch cut off never
 * passes for the file), hashing it with the kind's algorithm on the way; at most `max_mb`. A body
 * shorter than its declared length is `<codes>_TRUNCATED`.
 */
export async function fetchToFile(
  source: FetchSource,
  kind: FetchKind,
  target: string,
  signal: AbortSignal,
): Promise<{ bytes: number; digest: string }> {
  const response = await finalAnswer(source, kind, signal);
  const status = response.statusCode ?? 0;
  if (status !== 200) {
    response.resume();
    throw failure(
      kind,
      'FETCH_FAILED',
      `the ${kind.noun}’s server answered ${status}`,
      status >= 500 || status === 429,
    );
  }
  const maxBytes = source.max_mb * MIB;
  const tooLarge = () =>
    failure(kind, 'TOO_LARGE', `the ${kind.noun} is larger than ${source.max_mb} MB`, false);
  const declared = Number(response.headers['content-length'] ?? Number.NaN);
  if (declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const truncated = (bytes: number) =>
    failure(kind, 'TRUNCATED', `the ${kind.noun}’s download ended after ${bytes} of ${declared} bytes`, true);
  mkdirSync(dirname(target), { recursive: true });
  const partial = partialOf(target);
  const hash = createHash(kind.algorithm);
  let bytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(partial);
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          response.destroy();
          out.destroy();
          reject(tooLarge());
          return;
        }
        hash.update(chunk);
        if (!out.write(chunk)) {
          response.pause();
          out.once('drain', () => response.resume());
        }
      });
      response.on('end', () => {
        if (Number.isFinite(declared) && bytes !== declared) {
          out.destroy();
          reject(truncated(bytes));
          return;
        }
        out.end();
      });
      response.on('error', (error) =>
        reject(
          Number.isFinite(declared) && bytes < declared
            ? truncated(bytes)
            : failure(kind, 'FETCH_FAILED', `the ${kind.noun}’s download broke off: ${error.message}`, true),
        ),
      );
      out.on('finish', resolve);
      out.on('error', reject);
    });
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { bytes, digest: hash.digest('hex') };
}
