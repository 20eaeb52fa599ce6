import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriverFailure } from '../../agent/drivers/driver.js';
import { fetchImageInto } from '../../agent/media/image-fetch.js';
import type { AgentTaskParams } from '../../domain/agent-tasks.js';

/** The agent's image fetcher against a server of the test's own on loopback; nothing half-written is ever left in the store. */
const DISK = randomBytes(2 * 1024 * 1024 + 5);
const sha256 = createHash('sha256').update(DISK).digest('hex');
let server: Server;
let base: string;
let store: string;
beforeAll(async () => {
  store = mkdtempSync(join(tmpdir(), 'image-fetch-'));
  server = createServer((req, res) => {
    if (req.url === '/disk.img') return res.end(DISK);
    if (req.url === '/to-metadata')
      return res.writeHead(302, { location: 'http://169.254.169.254/latest' }).end();
    if (req.url === '/to-private') return res.writeHead(301, { location: 'http://10.1.2.3/disk.img' }).end();
    if (req.url === '/to-file') return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/truncated') {
      res.writeHead(200, { 'content-length': String(DISK.length) });
      res.write(DISK.subarray(0, 1024 * 1024));
      // The server dies half-way: the connection ends short of what it declared.
      return setTimeout(() => res.socket?.destroy(), 50);
    }
    if (req.url === '/declared-large') {
      res.writeHead(200, { 'content-length': String(8 * 1024 * 1024) });
      return res.end();
    }
    if (req.url === '/streamed-large') {
      res.writeHead(200);
      res.write(randomBytes(2 * 1024 * 1024));
      return res.end(randomBytes(2 * 1024 * 1024));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  rmSync(store, { recursive: true, force: true });
});

let n = 0;
const params = (
  path: string,
  overrides: Partial<AgentTaskParams<'image.fetch'>> = {},
): AgentTaskParams<'image.fetch'> => ({
  image: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  url: `${base}${path}`,
  checksum_algorithm: 'sha256',
  checksum: sha256,
  format: 'raw',
  max_mb: 3,
  allowed_networks: ['127.0.0.0/8'],
  ...overrides,
});
const signal = new AbortController().signal;
async function refused(p: AgentTaskParams<'image.fetch'>): Promise<DriverFailure> {
  const error = await fetchImageInto(store, p, signal).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DriverFailure);
  // Nothing of it in the store, and nothing left half-written beside it.
  expect(existsSync(join(store, p.image))).toBe(false);
  expect(readdirSync(join(store, '.incoming'))).toEqual([]);
  return error as DriverFailure;
}

describe('fetching an image version', () => {
  it('puts the verified disk in the store; asked again, and twice at once, it fetches nothing more', async () => {
    const p = params('/disk.img');
    expect(await fetchImageInto(store, p, signal)).toEqual({ size_mb: 3, fetched: true });
    expect(readFileSync(join(store, p.image, 'disk.raw')).equals(DISK)).toBe(true);
    expect(await fetchImageInto(store, p, signal)).toEqual({ size_mb: 3, fetched: false });
    const racing = params('/disk.img');
    const both = await Promise.all([
      fetchImageInto(store, racing, signal),
      fetchImageInto(store, racing, signal),
    ]);
    expect(both.map((r) => r.size_mb)).toEqual([3, 3]);
    expect(readFileSync(join(store, racing.image, 'disk.raw')).equals(DISK)).toBe(true);
    expect(readdirSync(join(store, '.incoming'))).toEqual([]);
  });

  it('refuses a redirect to a private, metadata or non-http address, and an endless one', async () => {
    for (const path of ['/to-metadata', '/to-private'])
      expect(await refused(params(path))).toMatchObject({
        code: 'IMAGE_ADDRESS_REFUSED',
        retryable: false,
        message: expect.stringMatching(/redirects to .*not fetched from/),
      });
    expect(await refused(params('/to-file'))).toMatchObject({ code: 'IMAGE_REDIRECTED', retryable: false });
    expect(await refused(params('/loop'))).toMatchObject({
      code: 'IMAGE_REDIRECTED',
      message: expect.stringContaining('more than 5 times'),
    });
  });

  it('refuses a wrong checksum, a truncated download and a body over the bound, each with its reason', async () => {
    expect(await refused(params('/disk.img', { checksum: 'ab'.repeat(32) }))).toMatchObject({
      code: 'IMAGE_CHECKSUM_MISMATCH',
      retryable: false,
      message: expect.stringContaining(sha256),
    });
    const sha512 = createHash('sha512').update(DISK).digest('hex');
    expect(
      await fetchImageInto(
        store,
        params('/disk.img', { checksum_algorithm: 'sha512', checksum: sha512 }),
        signal,
      ),
    ).toMatchObject({
      fetched: true,
    });
    expect(
      await refused(params('/disk.img', { checksum_algorithm: 'sha512', checksum: 'cd'.repeat(64) })),
    ).toMatchObject({
      code: 'IMAGE_CHECKSUM_MISMATCH',
    });
    expect(await refused(params('/truncated'))).toMatchObject({
      code: 'IMAGE_TRUNCATED',
      retryable: true,
      message: expect.stringMatching(/ended after \d+ of \d+ bytes/),
    });
    expect(await refused(params('/declared-large'))).toMatchObject({
      code: 'IMAGE_TOO_LARGE',
      retryable: false,
    });
    expect(await refused(params('/streamed-large'))).toMatchObject({ code: 'IMAGE_TOO_LARGE' });
    expect(await refused(params('/missing'))).toMatchObject({ code: 'IMAGE_FETCH_FAILED', retryable: false });
    expect(await refused(params('/disk.img', { allowed_networks: [] }))).toMatchObject({
      code: 'IMAGE_ADDRESS_REFUSED',
    });
  });
});
