import type { Database } from '../../db/database.js';
import { dnsTargetOf } from '../../db/repositories/network/reverse-dns-publishing.js';
import { secretBox } from '../../platform/secrets.js';
import { type DnsDriver, type DnsFailure, dnsFailure } from './driver.js';
import { driverFor } from './drivers.js';

type DnsTarget = NonNullable<Awaited<ReturnType<typeof dnsTargetOf>>>;

/**
 * The location's DNS provider as it stands now (zones, protocol, endpoint) and a driver holding its
 * credential, opened at the call; or why there is none.
 */
export async function locationDriver(
  db: Database,
  secretsKey: string | undefined,
  locationId: string,
): Promise<
  { target: DnsTarget; driver: DnsDriver } | { target: DnsTarget | undefined; failure: DnsFailure }
> {
  const target = await dnsTargetOf(db, locationId);
  if (!target) return { target, failure: dnsFailure('no_dns_provider') };
  if (!target.credential_sealed) return { target, failure: dnsFailure('no_credential') };
  const chosen = driverFor({
    protocol: target.dns_protocol,
    endpoint: target.endpoint,
    credential: secretBox(secretsKey).open(target.credential_sealed),
  });
  return 'driver' in chosen ? { target, driver: chosen.driver } : { target, failure: chosen.failure };
}
