import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { mayDeliverTo } from '../domain/events/endpoints.js';

/** A host that resolved to an address deliveries may not go to. */
export class AddressRefused extends Error {}

/**
 * Resolves the host as the system does and lets the connection go only to addresses the rule
 * takes, at connect time: a name that resolves elsewhere later (DNS rebinding) never reaches a
 * refused address. The ISO fetch checks its addresses the same way (agent/media/iso-fetch.ts).
 */
export function checkedLookup(allowedNetworks: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (addresses.length === 0 || !addresses.every((a) => mayDeliverTo(a.address, allowedNetworks)))
        return callback(new AddressRefused(), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** Whether a request's error is the lookup's refusal (Node wraps it, or not, by version). */
export const isAddressRefused = (error: Error): boolean =>
  error instanceof AddressRefused || (error as { cause?: unknown }).cause instanceof AddressRefused;
