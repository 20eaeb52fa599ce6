import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerRunWorkflowId } from '../../domain/workflow-ids.js';
import { captureAllOutput } from '../support/captured-output.js';
import { eventually } from '../support/eventually.js';
import { type ProviderServer, startProviderServer } from '../support/provider-server.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * A provider's credential is write-only (SPEC.md §1, docs/api.md "Providers"). Canary credentials
 * go in through every route that takes one, to a provider that echoes what it is sent in every
 * body and redirects with the token in the URL; then every response the Application API gave or
 * gives on any GET route, every line the API and the worker wrote (at debug, the Temporal
 * runtime's included) and the history of every provider run are searched for them.
 */
process.env.TEST_LOG_LEVEL = 'debug';

let output: string[] = [];
let restore = () => {};

const canaries: string[] = [];
const plant = () => {
  const canary = `canary-${randomUUID()}`;
  canaries.push(canary);
  return canary;
};

/** Everything the Application API answered, as text. */
const responses: string[] = [];

let t: Stack;
let provider: ProviderServer;
beforeAll(async () => {
  ({ output, restore } = captureAllOutput({ console: true }));
  t = await startStack({ worker: true, config: { LOG_LEVEL: 'debug', PROVIDER_ALLOW_HTTP: 'true' } });
  provider = await startProviderServer();
  provider.hostile = true;
});
afterAll(async () => {
  await provider?.close();
  await t?.close();
  restore();
});

async function admin(method: string, path: string, body?: unknown) {
  const reply = await t.call(t.admin, method, `/api/application/cloudsvc${path}`, body);
  responses.push(JSON.stringify(reply.body ?? null));
  return reply;
}

async function finished(providerId: string, path: string, body?: unknown) {
  const begun = await admin('POST', `/providers/${providerId}${path}`, body);
  expect(begun.status).toBe(202);
  return eventually(async () => {
    const run = (await admin('GET', `/providers/${providerId}/runs/${begun.body.attributes.uuid}`)).body
      .attributes;
    return run.status !== 'running' && run;
  });
}

/** A history as text, each payload's bytes decoded, so a value in an input or result reads as written. */
const readable = (history: unknown) =>
  JSON.stringify(history, (_key, value) =>
    value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value,
  );

describe('a provider credential', () => {
  it('is in no response, log line or workflow history, through every route that takes one', async () => {
    const created = await admin('POST', '/providers', {
      name: `storage-${randomUUID().slice(0, 8)}`,
      kind: 'storage',
      endpoint: provider.url,
    });
    const providerId = created.body.attributes.uuid;
    const credential = plant();
    provider.accepted.add(credential);
    expect((await admin('PUT', `/providers/${providerId}/credential`, { credential })).status).toBe(200);

    // Refused credentials: too long, and with a control character.
    for (const refused of [`${plant()}${'x'.repeat(4096)}`, `${plant()}\u0007`]) {
      expect(
        (await admin('PUT', `/providers/${providerId}/credential`, { credential: refused })).status,
      ).toBe(400);
      expect(
        (await admin('POST', `/providers/${providerId}/credential/rotate`, { credential: refused })).status,
      ).toBe(400);
    }

    expect(await finished(providerId, '/test')).toMatchObject({ result: 'ok' });
    expect(await finished(providerId, '/sync')).toMatchObject({ result: 'ok', items: 3 });
    provider.redirect = true;
    expect(await finished(providerId, '/test')).toMatchObject({ result: 'failed', http_status: 302 });
    provider.redirect = false;
    expect(await finished(providerId, '/credential/rotate', { credential: plant() })).toMatchObject({
      result: 'unauthorized',
    });
    const next = plant();
    provider.accepted.add(next);
    expect(await finished(providerId, '/credential/rotate', { credential: next })).toMatchObject({
      result: 'ok',
    });
    provider.accepted.clear();
    expect(await finished(providerId, '/test')).toMatchObject({ result: 'unauthorized' });
    // The provider did receive them: the search below looks for what was really sent.
    expect(provider.received).toEqual(expect.arrayContaining([credential, next]));

    // Every GET route of the Application API, with this provider and each of its runs where one is named.
    const runIds = (await admin('GET', `/providers/${providerId}/runs?per_page=100`)).body.data.map(
      (d: { attributes: { uuid: string } }) => d.attributes.uuid,
    );
    expect(runIds).toHaveLength(6);
    const routes = [
      ...new Set(
        t.app.routes
          .filter((r) => r.method === 'GET' && r.path.startsWith('/api/application/cloudsvc/'))
          .map((r) => r.path.slice('/api/application/cloudsvc'.length)),
      ),
    ];
    expect(routes).toEqual(expect.arrayContaining(['/providers', '/providers/:provider/runs/:run']));
    for (const route of routes)
      for (const runId of route.includes(':run') ? runIds : [null]) {
        const path = route.replace(/:(\w+)(\{[^}]*\})?/g, (_match, name: string) =>
          name === 'provider' ? providerId : name === 'run' && runId ? runId : randomUUID(),
        );
        expect((await admin('GET', path)).status, path).toBeLessThan(500);
      }

    const histories: string[] = [];
    const runs = await t.db
      .selectFrom('provider_runs')
      .select(['id', 'kind'])
      .where('provider_id', '=', providerId)
      .execute();
    for (const run of runs) {
      const history = await t.temporal.workflow
        .getHandle(providerRunWorkflowId(run.kind, providerId, run.id))
        .fetchHistory();
      const text = readable(history);
      // The search reads payloads: the run's id, which the input carries, is found.
      expect(text).toContain(run.id);
      histories.push(text);
    }
    expect(histories).toHaveLength(6);

    const stored = JSON.stringify(
      await t.db.selectFrom('providers').selectAll().where('id', '=', providerId).execute(),
    );
    const everywhere = {
      responses: responses.join('\n'),
      logs: output.join('\n'),
      histories: histories.join('\n'),
      stored,
    };
    expect(everywhere.logs).toContain(providerId);
    for (const canary of canaries)
      for (const [where, text] of Object.entries(everywhere))
        expect(text.includes(canary), `a canary in the ${where}`).toBe(false);
  });
});
