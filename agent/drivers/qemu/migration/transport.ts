import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConnectionOptions, TlsOptions } from 'node:tls';
import { migrationOfIdentity, transportIdentity } from '../../../../domain/migrations/transport.js';
import { DriverFailure } from '../../driver.js';
import type { Qmp } from '../guests/qmp.js';

// A move's TLS on the QEMU hypervisor (docs/migration.md "Transport", docs/qemu.md): the move's
// key, which the panel minted and handed to both agents, as TLS 1.3 with a pre-shared key for
// every port a move opens between them: the agent's transfer channel (Node), and a live move's
// NBD mirrors and memory stream (QEMU's `tls-creds-psk`). Both ends prove they hold the key; the
// (EC)DHE of TLS 1.3 keeps recorded traffic safe from a key that leaks later.

/** A migration and its transport key (64 hex), as this agent holds them. */
export interface MoveKey {
  readonly migrationId: string;
  readonly key: string;
}

/** The key this side keeps for a move, or the failure a move carried under none ends in. */
export function moveKey(migrationId: string, key: string | null | undefined): MoveKey {
  if (!key)
    throw new DriverFailure(
      'TRANSPORT_UNKEYED',
      'this host holds no transport key for the migration: it began before moves were keyed',
      false,
    );
  return { migrationId, key };
}

/**
 * TLS 1.3 only, with a SHA-256 suite: a PSK negotiates only with a suite of its hash, and with a
 * SHA-384 one Node falls back to certificates, which the channel has none of.
 */
const TLS_13_PSK = {
  minVersion: 'TLSv1.3',
  maxVersion: 'TLSv1.3',
  ciphers: 'TLS_AES_128_GCM_SHA256',
} as const;

/**
 * The transfer channel's side: a client is let in only with the key of a move this agent offers
 * now (`keyOf`); a plain client, an unknown identity or a wrong key ends in the handshake, before
 * any byte of HTTP. Which move each connection proved is kept in `proven`, so a request is served
 * only for that move.
 */
export function channelTls(
  keyOf: (migrationId: string) => string | undefined,
  proven: WeakMap<object, string>,
): TlsOptions {
  return {
    ...TLS_13_PSK,
    pskCallback: (socket, identity) => {
      const migrationId = migrationOfIdentity(identity);
      const key = migrationId && keyOf(migrationId);
      if (!migrationId || !key) return null;
      proven.set(socket, migrationId);
      return Buffer.from(key, 'hex');
    },
  };
}

/** The target's side of the channel: it names the move and proves it holds the key. */
export const pullerTls = (move: MoveKey): ConnectionOptions => ({
  ...TLS_13_PSK,
  pskCallback: () => ({ identity: transportIdentity(move.migrationId), psk: Buffer.from(move.key, 'hex') }),
});

// QEMU's side. The credentials read `<dir>/keys.psk` (`identity:key`); a listener reads it at each
// handshake, so removing the file refuses every new connection at once (open ones go on).

const credentialsId = (migrationId: string) => `tls-move-${migrationId}`;
const keyDir = (stateDir: string, migrationId: string) => join(stateDir, 'transport', migrationId);

/**
 * The move's credentials in the guest's QEMU, as the listener (`server`, the target) or the
 * client (`client`, the source): its key file written (0600 in a 0700 directory of the agent's),
 * the object added unless a repeated task finds it there. Returns the object's id.
 */
export async function addQemuCredentials(
  qmp: Qmp,
  stateDir: string,
  move: MoveKey,
  endpoint: 'server' | 'client',
): Promise<string> {
  const dir = keyDir(stateDir, move.migrationId);
  const identity = transportIdentity(move.migrationId);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'keys.psk'), `${identity}:${move.key}\n`, { mode: 0o600 });
  const id = credentialsId(move.migrationId);
  const objects = await qmp.execute<{ name: string }[]>('qom-list', { path: '/objects' });
  if (!objects.some((o) => o.name === id))
    await qmp.execute('object-add', {
      'qom-type': 'tls-creds-psk',
      id,
      dir,
      endpoint,
      ...(endpoint === 'client' ? { username: identity } : {}),
    });
  return id;
}

/** The move's key file gone (no new handshake succeeds), and its credentials out of the guest's QEMU. */
export async function removeQemuCredentials(
  qmp: Qmp | undefined,
  stateDir: string,
  migrationId: string,
): Promise<void> {
  rmSync(keyDir(stateDir, migrationId), { recursive: true, force: true });
  if (!qmp) return;
  // The memory stream no longer names them; then they go (a repeat finds them gone).
  await qmp.execute('migrate-set-parameters', { 'tls-creds': '' }).catch(() => undefined);
  await qmp.execute('object-del', { id: credentialsId(migrationId) }).catch(() => undefined);
}
