import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A collector for `BENCH_TRACING=exporting`: takes OTLP/HTTP batches at `/v1/traces` as a
 * collector would (reads the body, answers 200) and counts what arrived, so the bench shows the
 * API really exported while it was measured.
 */
export async function startOtlpSink(): Promise<{
  url: string;
  batches(): number;
  bytes(): number;
  close(): Promise<void>;
}> {
  let batches = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      if (request.url === '/v1/traces') batches++;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    batches: () => batches,
    bytes: () => bytes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
