import { randomBytes } from 'node:crypto';

// A move's transport key (docs/migration.md "Transport"): what both hypervisors of one migration
// authenticate each other and encrypt with, on every port a move opens between them (TLS 1.3 with
// a pre-shared key). The panel mints it per migration; only the two agents ever hold it in clear.

/** 32 random bytes in hex: what a `transport_secret` task parameter holds once opened. */
export const TRANSPORT_KEY = /^[0-9a-f]{64}$/;

/** A fresh key, in clear: the caller seals it at once (platform/secrets.ts). */
export const mintTransportKey = (): string => randomBytes(32).toString('hex');

/**
 * The PSK identity of a migration's key: sent in clear in every handshake, so it names the move
 * and nothing more. A listener looks the key up by it, so one move's key opens no other's.
 */
export const transportIdentity = (migrationId: string) => `move-${migrationId}`;

/** The migration an identity names; undefined when it names none. */
export function migrationOfIdentity(identity: string): string | undefined {
  const match = /^move-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(identity);
  return match?.[1];
}
