import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { operatorCli, settingsOf } from './operator-cli.js';

/** The operator's first reads: the same lists, filters and cursors as the Application API's. */
let t: Stack;
beforeAll(async () => {
  t = await startStack();
});
afterAll(() => t.close());

const cli = (args: string[]) => operatorCli(args, { settings: settingsOf(t.config) });
const admin = (path: string) => t.call(t.admin, 'GET', path);

describe('cloudsvc:instances:list', () => {
  it('prints, with --json, the body GET /instances answers, filters and cursor alike', async () => {
    const location = await seed.location(t.db);
    const hypervisor = await seed.hypervisor(t.db, location.id);
    const made = [];
    for (const status of ['running', 'stopped', 'running'] as const)
      made.push(
        await seed.instance(t.db, {
          userId: t.client.id,
          locationId: location.id,
          hypervisorId: hypervisor.id,
          status,
        }),
      );

    const query = `location=${location.id}&status=running&per_page=1`;
    const json = await cli([
      'cloudsvc:instances:list',
      `--location=${location.id}`,
      '--status=running',
      '--per-page=1',
      '--json',
    ]);
    expect(json.code).toBe(0);
    const api = (await admin(`/api/application/cloudsvc/instances?${query}`)).body;
    expect(json.json()).toEqual(api);
    expect(api.data.map((d: { attributes: { uuid: string } }) => d.attributes.uuid)).toEqual([made[2]!.id]);

    const next = await cli([
      'cloudsvc:instances:list',
      `--location=${location.id}`,
      '--status=running',
      '--per-page=1',
      `--cursor=${api.meta.cursor.next}`,
      '--json',
    ]);
    expect(next.json()).toEqual(
      (await admin(`/api/application/cloudsvc/instances?${query}&cursor=${api.meta.cursor.next}`)).body,
    );

    const text = await cli(['cloudsvc:instances:list', `--hypervisor=${hypervisor.id}`]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('UUID');
    for (const instance of made) expect(text.stdout).toContain(instance.id);
    expect(text.stdout).toContain(`3 of 3 instance(s)`);
  });

  it('refuses a filter that is not an id or a status, and a cursor with a page (exit 2)', async () => {
    for (const args of [
      ['--user=alice'],
      ['--status=sleeping'],
      ['--suspended=maybe'],
      ['--per-page=500'],
      ['--cursor=bm90LWEtY3Vyc29y'],
      ['--page=2', `--cursor=${Buffer.from(`1~${randomUUID()}`).toString('base64url')}`],
    ]) {
      const refused = await cli(['cloudsvc:instances:list', ...args]);
      expect(refused.code, args.join(' ')).toBe(2);
    }
  });
});

describe('cloudsvc:migrations:list', () => {
  it('prints, with --json, the body GET /migrations answers', async () => {
    const instance = randomUUID();
    const json = await cli(['cloudsvc:migrations:list', `--instance=${instance}`, '--json']);
    expect(json.code).toBe(0);
    expect(json.json()).toEqual((await admin(`/admin/cloudsvc/migrations?instance=${instance}`)).body);
    const text = await cli(['cloudsvc:migrations:list', '--state=ROLLED_BACK']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/migration\(s\)/);
    expect((await cli(['cloudsvc:migrations:list', '--state=DONE'])).code).toBe(2);
  });
});
