import { powerDnsInstalled, startPowerDns } from '../../test/support/powerdns.js';
import { runReverseDnsChanges } from '../reverse-dns.js';
import type { BenchStack } from '../stack.js';
import { failureVerdict, latencyVerdict, withApiRounds } from './api-rounds.js';

const RDNS_ROUNDS = Number(process.env.BENCH_RDNS ?? 50);
/** Issue 52: a change published within 2 s; p99 held to the same bound. */
const TARGETS = { p50: 2000, p99: 2000 };

/** 16. rDNS changes on one address, request to answered by a real PowerDNS, through either driver. */
export async function rdnsPart(stack: BenchStack): Promise<void> {
  if (!powerDnsInstalled()) {
    console.log('rdns: skipped, PowerDNS (pdns-server, pdns-backend-sqlite3, sqlite3) is not installed');
    return;
  }
  const pdns = await startPowerDns({ dnsUpdate: true });
  try {
    const times = await withApiRounds(stack, 'rdns', RDNS_ROUNDS, (input) =>
      runReverseDnsChanges(input, pdns),
    );
    const failures = failureVerdict(times.failures);
    console.log(
      `rDNS changes (${RDNS_ROUNDS} rounds per driver on one address, PATCH …/rdns to the PTR answered by a ` +
        `local PowerDNS ${pdns.startedInMs} ms to start, polled every 2 ms): PowerDNS API ` +
        `${latencyVerdict(times.powerdnsMs, TARGETS)}; RFC 2136 + TSIG ${latencyVerdict(times.rfc2136Ms, TARGETS)}; ` +
        failures.line,
    );
    for (const line of failures.details) console.log(line);
  } finally {
    await pdns.close();
  }
}
