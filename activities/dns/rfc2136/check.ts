import { randomInt } from 'node:crypto';
import type { ProviderOutcome, ProviderRunKind } from '../../../domain/providers.js';
import { rfc2136ServerOf } from './driver.js';
import { exchangeUdp } from './transport.js';
import { signRequest } from './tsig.js';
import { checkAnswer, keyRefused } from './tsig-answer.js';
import { CLASS_IN, encodeHeader, encodeName, RCODE, TYPE_SOA } from './wire.js';

/**
 * A provider check (test, sync, a rotation's trial) of an RFC 2136 server: the zone's SOA asked for
 * in a query signed with the TSIG key, so the check proves what an update needs, that the server
 * takes the key, without changing anything. A test or a trial asks the first zone; a sync asks every
 * zone and counts those the server serves (`items`).
 */
export async function checkRfc2136(
  endpoint: string,
  credential: string,
  kind: ProviderRunKind,
  zones: readonly string[],
): Promise<ProviderOutcome> {
  const started = performance.now();
  const outcome = (result: ProviderOutcome['result'], items: number | null = null): ProviderOutcome => ({
    result,
    http_status: null,
    latency_ms: Math.round(performance.now() - started),
    items,
  });
  const opened = rfc2136ServerOf(endpoint, credential);
  if ('failure' in opened || zones.length === 0) return outcome('failed');
  const { address, key } = opened.server;
  let served = 0;
  for (const zone of kind === 'sync' ? zones : zones.slice(0, 1)) {
    const query = Buffer.concat([
      encodeHeader(randomInt(0, 0x10000), 0, [1, 0, 0, 0]),
      encodeName(zone),
      Buffer.from([0, TYPE_SOA, 0, CLASS_IN]),
    ]);
    const { signed, mac } = signRequest(query, key);
    const answer = await exchangeUdp(address, signed);
    if (answer === null) return outcome('unreachable');
    const rcode = answer.readUInt16BE(2) & 0xf;
    const checked = checkAnswer(answer, mac, key);
    if (keyRefused(rcode, checked)) return outcome('unauthorized');
    if (rcode !== RCODE.NOERROR || checked.signature !== 'signed') return outcome('failed');
    served++;
  }
  return outcome('ok', kind === 'sync' ? served : null);
}
