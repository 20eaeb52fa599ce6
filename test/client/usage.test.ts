import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHour } from '../../services/usage/close-hours.js';
import { type Stack, startStack } from '../support/stack.js';
import { addHours, at, minutesInto, newInstance, pastHour } from '../usage/history.js';

/**
 * The customer's usage records (docs/usage.md "Reading"): their own account's, never another's,
 * as JSON pages and CSV.
 */
let t: Stack;
let mine: { id: string };
beforeAll(async () => {
  t = await startStack();
  [mine] = await at(t.db, minutesInto(H, -1), async (trx) => [
    await newInstance(trx, t.client.id, t.locationId, null),
    await newInstance(trx, t.stranger.id, t.locationId, null),
  ]);
  await closeHour(t.deps, H);
});
afterAll(() => t.close());

const H = pastHour();
const range = `from=${H.toISOString()}&to=${addHours(H, 1).toISOString()}`;
const usage = (who: typeof t.client, query: string) =>
  t.call(who, 'GET', `/api/client/cloud/account/usage?${query}`);
const owners = (body: { data: { attributes: { user_uuid: string } }[] }) =>
  new Set(body.data.map((r) => r.attributes.user_uuid));

describe('GET /account/usage (Client API)', () => {
  it('shows the customer their own records only', async () => {
    const reply = await usage(t.client, range);
    expect(reply.status).toBe(200);
    expect(owners(reply.body)).toEqual(new Set([t.client.id]));
    expect(
      reply.body.data.map((r: { attributes: { metric: string } }) => r.attributes.metric).sort(),
    ).toEqual(['instance.disk', 'instance.memory', 'instance.running', 'instance.vcpu']);
    expect(owners((await usage(t.stranger, range)).body)).toEqual(new Set([t.stranger.id]));
  });

  it("gives a stranger nothing of another's instance, as JSON or CSV", async () => {
    const reply = await usage(t.stranger, `${range}&instance=${mine.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual([]);
    const csv = await usage(t.stranger, `${range}&instance=${mine.id}&format=csv`);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect((csv.body as string).trimEnd().split('\r\n')).toHaveLength(1);
  });

  it('is refused without a credential, and to an application key', async () => {
    expect((await t.call(null, 'GET', `/api/client/cloud/account/usage?${range}`)).status).toBe(401);
    expect((await t.call(t.admin, 'GET', `/api/client/cloud/account/usage?${range}`)).status).toBe(403);
  });
});
