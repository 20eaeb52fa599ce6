import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addKeysUntil, type WriteTally } from './load.js';
import { skipWithoutShape } from './needs.js';
import { type FaultShape, type Part, startFaultShape } from './shape.js';
import { recordFault } from './table.js';

/**
 * kill -9 an API process while customers write through the proxy: every write it acknowledged is
 * in the database, and a client caught in its death sees one retryable failure (HAProxy's 502,
 * or the connection ended) whose retry succeeds, or finds that the first try had landed (409).
 * `npm test` kills one API; `npm run test:faults` kills each in turn.
 */
const skipped = skipWithoutShape('the fault suite');
const KILLS: Part[] = process.env.FAULTS === 'all' ? ['api-1', 'api-2'] : ['api-1'];
const CLIENTS = 8;

let shape: FaultShape;
beforeAll(async () => {
  if (!skipped) shape = await startFaultShape({ SSH_KEYS_MAX_PER_USER: '10000' });
}, 300_000);
afterAll(async () => {
  await shape?.stop();
});

describe.skipIf(skipped)('an API process killed under client load (production shape)', () => {
  it.each(KILLS)(
    '%s killed while 8 clients write: every acknowledged write kept, each failure retryable and retried',
    {
      timeout: 180_000,
    },
    async (part) => {
      const tally: WriteTally = { acknowledged: [], retried: 0, unexpected: [] };
      let stop = () => {};
      const until = new Promise<void>((r) => {
        stop = r;
      });
      const clients = Array.from({ length: CLIENTS }, (_, c) =>
        addKeysUntil(shape, `${part}-c${c}`, until, tally),
      );
      await new Promise((r) => setTimeout(r, 2_000));
      const killed = shape.kill(part);
      await shape.back(part, killed);
      await new Promise((r) => setTimeout(r, 2_000));
      stop();
      await Promise.all(clients);

      const kept = await shape.db
        .selectFrom('ssh_keys')
        .select('id')
        .where('id', 'in', tally.acknowledged)
        .execute();
      const lost = tally.acknowledged.length - kept.length;
      const held = lost === 0 && tally.unexpected.length === 0 && tally.acknowledged.length > 0;
      recordFault(inject('faultsFolder'), {
        fault: `${part} killed (kill -9)`,
        during: `${CLIENTS} clients adding SSH keys through HAProxy`,
        outcome: `${tally.acknowledged.length} writes acknowledged, ${lost} lost; ${tally.retried} retried after a retryable failure; ${tally.unexpected.length} other failures`,
        held,
      });
      expect(tally.unexpected).toEqual([]);
      expect(lost).toBe(0);
      expect(tally.acknowledged.length).toBeGreaterThan(CLIENTS);
    },
  );
});
