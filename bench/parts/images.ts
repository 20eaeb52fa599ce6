import { benchImageFetches } from '../image-fetches.js';
import type { BenchStack } from '../stack.js';

const SIZE_MB = Number(process.env.BENCH_IMAGE_MB ?? 256);
const AGENTS = Number(process.env.BENCH_IMAGE_AGENTS ?? 2);

/** 18. Image fetch throughput: one version fetched by several agents at once from a local server. */
export async function imagesPart(stack: BenchStack): Promise<void> {
  const figures = await benchImageFetches(stack, { sizeMb: SIZE_MB, agents: AGENTS });
  const mbps = (n: number) => `${n.toFixed(1)} MB/s`;
  console.log(
    `image fetches (a ${SIZE_MB} MB raw image from a local HTTP server, ${AGENTS} simulated agents at once, ` +
      'the agent’s own fetcher with its checksum, version added to each copy ready): per hypervisor ' +
      `${figures.perHypervisorMbps.map(mbps).join(', ')}; together ${mbps(figures.aggregateMbps)}`,
  );
}
