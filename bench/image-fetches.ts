import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { upsertLocation } from '../db/repositories/catalogue/catalog.js';
import { insertHypervisor } from '../db/repositories/hypervisors/hypervisors.js';
import { imageDistributionWorkflowId } from '../domain/workflow-ids.js';
import { createImage } from '../services/catalogue/images.js';
import { addImageVersion } from '../services/images/versions.js';
import type { BenchStack } from './stack.js';

export interface ImageFetchFigures {
  readonly sizeMb: number;
  /** Each hypervisor's MB/s: the image's size over the time from the version added to its copy ready. */
  readonly perHypervisorMbps: number[];
  /** Every copy's megabytes over the time until the last was ready. */
  readonly aggregateMbps: number;
}

/** A file of `sizeMb` random megabytes, and its sha256 (written a chunk at a time, never whole in memory). */
async function randomImage(sizeMb: number): Promise<{ dir: string; path: string; sha256: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-image-'));
  const path = join(dir, 'disk.raw');
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  for (let i = 0; i < sizeMb; i++) {
    const chunk = randomBytes(1024 * 1024);
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return { dir, path, sha256: hash.digest('hex') };
}

/**
 * An image version of `sizeMb` served by a local HTTP server, added for a location of its own whose
 * `agents` simulated agents (processes, the agent's own fetcher) fetch it at once through the
 * version's distribution; timed from the add to each copy `ready`.
 */
export async function benchImageFetches(
  stack: BenchStack,
  options: { sizeMb: number; agents: number },
): Promise<ImageFetchFigures> {
  const workflows = await stack.workflows();
  const image = await randomImage(options.sizeMb);
  const server = createServer((req, res) => {
    if (req.url !== '/disk.raw') return res.writeHead(404).end();
    res.writeHead(200, { 'content-length': String(statSync(image.path).size) });
    createReadStream(image.path).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const location = await upsertLocation(stack.db, {
      code: `bench-img-${randomUUID().slice(0, 6)}`,
      name: 'Bench images',
    });
    for (let i = 0; i < options.agents; i++) {
      const hv = await insertHypervisor(stack.db, {
        name: `bench-img-hv-${i}-${randomUUID().slice(0, 6)}`,
        locationId: location.id,
        ...workflows.size,
        capabilities: [],
        storageBackends: ['local'],
      });
      await workflows.startAgent(hv.id, `image agent ${i}`);
    }
    const deps = workflows.deps({
      ISO_ALLOW_HTTP: true,
      ISO_ALLOWED_NETWORKS: ['127.0.0.0/8'],
      IMAGE_MAX_SIZE_MB: options.sizeMb * 2,
    });
    const made = await createImage(deps, {
      code: `bench-image-${randomUUID().slice(0, 8)}`,
      name: 'Bench image',
      os_family: 'other',
      virtualization: 'kvm',
      min_disk_mb: options.sizeMb,
      is_public: false,
    });
    const started = Date.now();
    const versionId = await addImageVersion(
      deps,
      made.id,
      {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/disk.raw`,
        checksum_algorithm: 'sha256',
        checksum: image.sha256,
        format: 'raw',
        locations: [location.code],
      },
      null,
    );
    const done = await deps.temporal.workflow.getHandle(imageDistributionWorkflowId(versionId)).result();
    if (done.ready !== options.agents) throw new Error(`${done.failed} of ${options.agents} fetches failed`);
    const copies = await stack.db
      .selectFrom('image_version_hosts')
      .select('updated_at')
      .where('image_version_id', '=', versionId)
      .execute();
    const seconds = copies.map((c) => (new Date(c.updated_at).getTime() - started) / 1000);
    return {
      sizeMb: options.sizeMb,
      perHypervisorMbps: seconds.map((s) => options.sizeMb / s).sort((a, b) => a - b),
      aggregateMbps: (options.sizeMb * options.agents) / Math.max(...seconds),
    };
  } finally {
    server.close();
    rmSync(image.dir, { recursive: true, force: true });
  }
}
