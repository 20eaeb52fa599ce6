import { readFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { STACK_PORT_SPAN } from './stack-ports.js';

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
 * A base for a stack (PORT) whose every port (platform/stack-ports.ts) is free now: a test's or the
 * bench's stack beside any other. Below the ephemeral range, as freePort, and low enough for the
 * production shape's Temporal server, whose membership ports must stay under 32768.
 */
export async function freeStackBase(host = '127.0.0.1'): Promise<number> {
  const top = Math.min(ephemeralFloor(), 32_768) - STACK_PORT_SPAN;
  const low = Math.max(1024, top - 12_000);
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = low + Math.floor(Math.random() * (top - low));
    let free = true;
    for (let offset = 0; free && offset < STACK_PORT_SPAN; offset++)
      free = (await bindable(base + offset, host)) !== undefined;
    if (free) return base;
  }
  throw new Error(`no ${STACK_PORT_SPAN} free ports in a row on ${host}`);
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
