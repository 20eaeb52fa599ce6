import { readFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';

/** Whether `port` can be listened on at `host` right now; 0 asks the system for any free one. */
function bindable(port: number, host: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => resolve(bound));
    });
  });
}

/** The lowest port the system hands to outgoing connections (Linux: 32768 by default). */
function ephemeralFloor(): number {
  try {
    const floor = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return Number.isInteger(floor) && floor > 2048 ? floor : 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * A port free on loopback right now, for a server that starts listening a little later. It is
 * taken below the ephemeral range: a port the system picked there can meanwhile become the local
 * end of some outgoing connection (a pooled database connection lives for minutes), and the
 * server's listen then fails with EADDRINUSE. Falls back to any free port.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const floor = ephemeralFloor();
  const low = Math.max(1024, floor - 12_000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (floor - low));
    if ((await bindable(port, host)) !== undefined) return port;
  }
  const any = await bindable(0, host);
  if (any === undefined) throw new Error(`no free port on ${host}`);
  return any;
}

/**
 * A free port whose neighbours at `offsets` above it are free too, for a stack that takes the
 * ports next to the one it is given (the production shape's two APIs at PORT+11 and +12).
 */
export async function freePortWithNeighbours(
  offsets: readonly number[],
  host = '127.0.0.1',
): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await freePort(host);
    let free = true;
    for (const offset of offsets) free = free && (await bindable(port + offset, host)) !== undefined;
    if (free) return port;
  }
  throw new Error(`no free port on ${host} with free neighbours at +${offsets.join(', +')}`);
}

export async function isPortOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(500);
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host);
  });
}

export async function waitForPort(
  port: number,
  timeoutMs: number,
  what: string,
  host = '127.0.0.1',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isPortOpen(port, host)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not open ${host}:${port} within ${timeoutMs} ms`);
}
