import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from './context.js';

function socketAddress<E extends AppEnv>(c: Context<E>): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // No socket behind the request (app.request in-process): one bucket for all such callers.
    return 'in-process';
  }
}

/**
 * The caller's address. Each proxy appends the address it received the request from to
 * X-Forwarded-For, so with TRUST_PROXY_HOPS proxies in front of the API the client is the
 * entry that many places from the right (the socket's peer being the nearest proxy). Entries
 * further left were written by the client itself and are never used. A chain shorter than the
 * hops gives its leftmost entry; an entry that is not an IP address gives the socket's.
 */
export function clientIp<E extends AppEnv>(c: Context<E>): string {
  const hops = c.get('deps').config.TRUST_PROXY_HOPS;
  if (hops === 0) return socketAddress(c);
  const chain = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (chain.length === 0) return socketAddress(c);
  const client = chain[Math.max(0, chain.length - hops)]!;
  return isIP(client) ? client : socketAddress(c);
}
