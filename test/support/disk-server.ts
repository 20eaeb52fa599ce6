import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP server of the test's own on a free loopback port, where the plane fetches images from:
 * by default it serves `disk` at `/disk.img` and answers 404 to anything else.
 */
export async function serveDisk(disk: Buffer, handler?: RequestListener) {
  const server = createServer(
    handler ?? ((req, res) => (req.url === '/disk.img' ? res.end(disk) : res.writeHead(404).end())),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
