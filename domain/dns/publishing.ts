// What the publishing workflow and the services that wake it share. Workflow code imports this
// file, so it holds no I/O and no Node module.

/** The signal that tells a location's publishing run that records changed (or a resync is asked). */
export const REVERSE_DNS_CHANGED_SIGNAL = 'reverseDnsChanged';

export interface ReverseDnsChanged {
  /** Remove stale records from the provider's zones before pushing every record again. */
  readonly resync: boolean;
}

/** How long a resolver may cache a PTR record the panel publishes. */
export const RDNS_TTL_SECONDS = 3600;

/**
 * What the steps that give addresses back need of the services: after their commit, the location's
 * publishing run woken when a released address's PTR record is to be deleted (the worker supplies it).
 */
export interface ReverseDnsWaking {
  wakeReverseDnsAfterRelease(locationId: string): Promise<void>;
}
