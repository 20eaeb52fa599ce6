import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO } from '../../db/seeds/demo.js';
import { AGENT_BASE } from '../../wire/paths.js';
import { eventually } from '../support/eventually.js';
import { skipWithoutShape } from '../support/prod-shape/needs.js';
import {
  type Part,
  PROD_SHAPE_START_MS,
  type ProdShape,
  startProdShape,
} from '../support/prod-shape/shape.js';
import { addKeysUntil, type WriteTally } from './load.js';
import { recordFault } from './table.js';
import {
  allTaken,
  quietInstances,
  suspensionEvents,
  toggleSuspension,
  WEBHOOK_FAULT_SETTINGS,
  watchSuspensions,
} from './webhooks.js';

/**
 * Two API processes behind HAProxy as one service. kill -9 one while customers write through the
 * proxy: every write it acknowledged is in the database, and a client caught in its death sees
 * one retryable failure (HAProxy's 502, or the connection ended) whose retry succeeds, or finds
 * that the first try had landed (409). `npm test` kills one API; `npm run test:faults` kills each
 * in turn. The limits count across both processes, and an agent's long poll, held by either, is
 * woken by its task's announcement whichever process the task came through. Outbound events
 * (docs/events.md "Delivery") outlive a receiver that is down for a while and the API process that
 * made their change, killed before they were delivered.
 */
const skipped = skipWithoutShape('the fault suite');
const KILLS: Part[] = process.env.FAULTS === 'all' ? ['api-1', 'api-2'] : ['api-1'];
const CLIENTS = 8;
const CREATE_LIMIT = 4;
const ENROLL_LIMIT = 3;

let shape: ProdShape;
beforeAll(async () => {
  if (skipped) return;
  shape = await startProdShape({
    SSH_KEYS_MAX_PER_USER: '10000',
    INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: String(CREATE_LIMIT),
    ENROLLMENT_RATE_LIMIT_PER_MINUTE: String(ENROLL_LIMIT),
    ...WEBHOOK_FAULT_SETTINGS,
  });
}, PROD_SHAPE_START_MS);
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

  it('the limits hold across both processes: instance orders and failed enrollments counted once, whichever API takes them', async () => {
    // The demo instance's order may still count in this minute: the first answer says what is left.
    const answers: Response[] = [];
    for (let i = 0; i < CREATE_LIMIT + 3; i++)
      answers.push(
        (
          await shape.customer.POST('/', {
            params: { header: { 'idempotency-key': randomUUID() } },
            body: {
              hostname: `limited-${i}.faults.test`,
              plan: DEMO.plan.code,
              image: DEMO.image.code,
              location: DEMO.location.code,
            },
          })
        ).response,
      );
    const orders = answers.map((r) => r.status);
    const left = Number(/;r=(\d+)/.exec(answers[0]!.headers.get('RateLimit') ?? '')?.[1]) + 1;
    const enrollments: number[] = [];
    for (let i = 0; i < ENROLL_LIMIT + 3; i++)
      enrollments.push(
        (
          await fetch(`${shape.url}${AGENT_BASE}/enroll`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ token: `not-a-token-${i}`, agent_version: '1.0.0' }),
          })
        ).status,
      );
    // Round robin: each process took some of both.
    const served = await Promise.all(
      (['api-1', 'api-2'] as const).map(async (api) => {
        const text = await shape.metricsOf(api);
        return ['/api/client/cloud', '/api/cloudsvc/agent/enroll'].map((route) =>
          countOf(text, 'POST', route),
        );
      }),
    );
    const held =
      orders.filter((s) => s === 202).length === left &&
      enrollments.filter((s) => s === 401).length === ENROLL_LIMIT &&
      served.every(([creates, enrolls]) => creates! > 0 && enrolls! > 0);
    recordFault(inject('faultsFolder'), {
      fault: 'limits hit through both API processes',
      during: `${orders.length} orders (limit ${CREATE_LIMIT}/min, ${left} left), ${enrollments.length} bad enrollments (limit ${ENROLL_LIMIT}/min)`,
      outcome: `orders: ${orders.join(' ')}; enrollments: ${enrollments.join(' ')}; served by api-1/api-2: ${served.map((s) => s.join('+')).join(' / ')}`,
      held,
    });
    expect(left).toBeGreaterThanOrEqual(CREATE_LIMIT - 1);
    expect(orders).toEqual([...Array(left).fill(202), ...Array(orders.length - left).fill(429)]);
    expect(enrollments).toEqual([...Array(ENROLL_LIMIT).fill(401), 429, 429, 429]);
    for (const [creates, enrolls] of served) {
      expect(creates).toBeGreaterThan(0);
      expect(enrolls).toBeGreaterThan(0);
    }
  });

  it('every task reaches the long poll waiting for it through its announcement, whichever process holds the poll', async () => {
    const offered = async () =>
      Promise.all((['api-1', 'api-2'] as const).map(async (api) => foundBy(await shape.metricsOf(api))));
    const before = await offered();
    const instance = { params: { path: { cloudInstance: shape.demoInstance } } };
    for (const action of ['stop', 'start', 'stop', 'start', 'stop', 'start'] as const) {
      expect(
        (await shape.customer.POST('/{cloudInstance}/power', { ...instance, body: { action } })).response
          .status,
      ).toBe(202);
      await eventually(
        async () =>
          (await shape.customer.GET('/{cloudInstance}', instance)).data?.attributes.status ===
          (action === 'stop' ? 'stopped' : 'running'),
        30_000,
        `the instance to ${action}`,
      );
    }
    const after = await offered();
    const delta = (found: 'wake' | 'recheck' | 'first_look') =>
      after.map((a, i) => (a[found] ?? 0) - (before[i]![found] ?? 0));
    // Both processes held polls meanwhile; a task found on a re-check would be a wake-up missed.
    const polls = await Promise.all(
      (['api-1', 'api-2'] as const).map(async (api) =>
        countOf(await shape.metricsOf(api), 'GET', '/api/cloudsvc/agent/tasks/next'),
      ),
    );
    const woken = delta('wake').reduce((a, b) => a + b, 0);
    const held = delta('recheck').every((n) => n === 0) && woken > 0 && polls.every((n) => n > 0);
    recordFault(inject('faultsFolder'), {
      fault: 'agents long-polling both API processes',
      during: '6 power actions, each a task announced from a worker',
      outcome: `polls held by api-1/api-2: ${polls.join('/')}; tasks found by a wake: ${delta('wake').join('/')}, at a poll's first look: ${delta('first_look').join('/')}, on a re-check (a missed wake-up): ${delta('recheck').join('/')}`,
      held,
    });
    expect(delta('recheck')).toEqual([0, 0]);
    expect(woken).toBeGreaterThan(0);
    for (const held of polls) expect(held).toBeGreaterThan(0);
  });
});

describe.skipIf(skipped)(
  'webhooks through a receiver down and an API process killed (production shape)',
  () => {
    it('a receiver down for 5 s while 10 changes are made: every event delivered once it is back, each webhook-id taken once', {
      timeout: 120_000,
    }, async () => {
      const watch = await watchSuspensions(shape);
      try {
        const instances = await quietInstances(shape, 5, 'receiver-down');
        await watch.receiver.down();
        const downAt = Date.now();
        for (const suspend of [true, false])
          for (const instance of instances) await toggleSuspension(shape.application, instance, suspend);
        const events = await suspensionEvents(shape, instances);
        // Tried and refused meanwhile: each stream's first delivery is retrying when the receiver comes back.
        await new Promise((r) => setTimeout(r, Math.max(0, 5_000 - (Date.now() - downAt))));
        const refused = await shape.db
          .selectFrom('webhook_attempts as a')
          .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('d.event_id', 'in', events)
          .executeTakeFirstOrThrow();
        await watch.receiver.up();
        const taken = await allTaken(watch.receiver, events);
        const held = events.length === 10 && taken.missing.length === 0 && Number(refused.n) > 0;
        recordFault(inject('faultsFolder'), {
          fault: 'webhook receiver down for 5 s',
          during: `${events.length} suspensions set and lifted through the Application API`,
          outcome: `${Number(refused.n)} attempts refused while down; ${taken.accepted} of ${events.length} events taken once back, ${taken.missing.length} missing, ${taken.sentAgain} sent again after a 2xx`,
          held,
        });
        expect(events).toHaveLength(10);
        expect(Number(refused.n)).toBeGreaterThan(0);
        expect(taken.missing).toEqual([]);
        expect(watch.receiver.accepted.size).toBe(events.length);
      } finally {
        await watch.stop();
      }
    });

    it('api-1 killed (kill -9) as soon as it answered a change, its event not yet delivered: the event is delivered', {
      timeout: 120_000,
    }, async () => {
      const watch = await watchSuspensions(shape);
      try {
        const [instance] = await quietInstances(shape, 1, 'api-killed');
        // Refused until after the kill: the delivery cannot be done before it.
        watch.receiver.answerAll(503);
        await toggleSuspension(shape.applicationAt('api-1'), instance!, true);
        const killed = shape.kill('api-1');
        const [event] = await shape.db
          .selectFrom('outbox_events')
          .select(['id', 'relayed_at'])
          .where('resource_id', '=', instance!)
          .where('type', '=', 'instance.suspended')
          .execute();
        watch.receiver.answerAll();
        const taken = await allTaken(watch.receiver, [event!.id]);
        await shape.back('api-1', killed);
        const held = taken.missing.length === 0;
        recordFault(inject('faultsFolder'), {
          fault: 'api-1 killed (kill -9)',
          during: 'a suspension it made, its webhook refused until then',
          outcome: `the event (${event!.relayed_at ? 'relayed' : 'still in the outbox'} at the kill) ${held ? 'delivered' : 'NOT delivered'}; POSTs of it: ${watch.receiver.received.filter((r) => r.headers['webhook-id'] === event!.id).length}`,
          held,
        });
        expect(taken.missing).toEqual([]);
      } finally {
        await watch.stop();
      }
    });
  },
);

/** How many requests of `method` to `route` a process's metrics count, whatever their status. */
function countOf(metrics: string, method: string, route: string): number {
  return metrics
    .split('\n')
    .filter((line) =>
      line.startsWith(`cloudsvc_http_request_duration_seconds_count{method="${method}",route="${route}",`),
    )
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

/** The process's count of tasks handed to long polls, by how each was found. */
function foundBy(metrics: string): Record<string, number> {
  return Object.fromEntries(
    [...metrics.matchAll(/^cloudsvc_agent_tasks_offered_total\{found_by="(\w+)"\} (\d+)/gm)].map((m) => [
      m[1]!,
      Number(m[2]),
    ]),
  );
}
