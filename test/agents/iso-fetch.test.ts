import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriverFailure } from '../../agent/drivers/driver.js';
import { fetchIso } from '../../agent/media/iso-fetch.js';

/** The agent's ISO fetcher against a server of the test's own on loopback. */
const ISO = randomBytes(3 * 1024 * 1024 + 17);
let server: Server;
let base: string;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'iso-fetch-'));
  server = createServer((req, res) => {
    if (req.url === '/a.iso') return res.end(ISO);
    if (req.url === '/chunked.iso') {
      res.write(ISO.subarray(0, 2 * 1024 * 1024));
      return res.end(ISO.subarray(2 * 1024 * 1024));
    }
    if (req.url === '/moved') {
      res.writeHead(302, { location: 'http://169.254.169.254/' });
      return res.end();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const LOOPBACK = ['127.0.0.0/8', '::1/128'];
const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DriverFailure);
  return error as DriverFailure;
};

describe('fetching an ISO', () => {
  it('writes what arrived, with its size and SHA-256, from an allowed network', async () => {
    const target = join(dir, 'a.iso');
    const fetched = await fetchIso(
      { url: `${base}/a.iso`, max_mb: 16, allowed_networks: LOOPBACK },
      target,
      new AbortController().signal,
    );
    expect(fetched).toEqual({ size_mb: 4, sha256: createHash('sha256').update(ISO).digest('hex') });
    expect(readFileSync(target).equals(ISO)).toBe(true);
  });

  it('connects to no address the host resolves to that is not public or allowed', async () => {
    const port = (server.address() as AddressInfo).port;
    const target = join(dir, 'refused.iso');
    for (const url of [`${base}/a.iso`, `http://localhost:${port}/a.iso`]) {
      const error = await failure(
        fetchIso({ url, max_mb: 16, allowed_networks: [] }, target, new AbortController().signal),
      );
      expect(error).toMatchObject({ code: 'ISO_ADDRESS_REFUSED', retryable: false });
    }
    expect(existsSync(target)).toBe(false);
  });

  it('follows no redirect, stops past the cap (declared or streamed), and says a missing one failed; nothing is left', async () => {
    const target = join(dir, 'bad.iso');
    const signal = new AbortController().signal;
    const at = (path: string, max_mb = 16) =>
      fetchIso({ url: `${base}${path}`, max_mb, allowed_networks: LOOPBACK }, target, signal);
    expect(await failure(at('/moved'))).toMatchObject({ code: 'ISO_REDIRECTED', retryable: false });
    expect(await failure(at('/a.iso', 2))).toMatchObject({ code: 'ISO_TOO_LARGE', retryable: false });
    expect(await failure(at('/chunked.iso', 1))).toMatchObject({ code: 'ISO_TOO_LARGE' });
    expect(await failure(at('/missing.iso'))).toMatchObject({ code: 'ISO_FETCH_FAILED', retryable: false });
    expect(existsSync(target)).toBe(false);
    expect(existsSync(`${target}.partial`)).toBe(false);
  });
});
