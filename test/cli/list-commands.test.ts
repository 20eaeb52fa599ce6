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
    expect(text.stdout).toContain(`3 of 3 instances`);
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
    expect(text.stdout).toMatch(/^\d+( of \d+)? migrations?$/m);
    expect((await cli(['cloudsvc:migrations:list', '--state=DONE'])).code).toBe(2);
  });
});

describe('cloudsvc:hypervisors:list', () => {
  /**
   * The CLI's --json against the API's body, read between two equal API reads: other files of the
   * run add hypervisors to the same database, and this list has no filter to keep them out.
   */
  async function expectSameAsApi(args: string[], path: string) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = (await admin(path)).body;
      const json = await cli(args);
      const after = (await admin(path)).body;
      if (JSON.stringify(before) !== JSON.stringify(after)) continue;
      expect(json.code).toBe(0);
      expect(json.json()).toEqual(after);
      return;
    }
    throw new Error(`the hypervisors kept changing under ${path}`);
  }

  it('prints, with --json, the body GET /hypervisors answers, page by page, and a table by name', async () => {
    const location = await seed.location(t.db);
    const made = [await seed.hypervisor(t.db, location.id), await seed.hypervisor(t.db, location.id)];

    for (const query of [
      { cli: [], api: '' },
      { cli: ['--per-page=1', '--page=2'], api: '?per_page=1&page=2' },
    ]) {
      await expectSameAsApi(
        ['cloudsvc:hypervisors:list', ...query.cli, '--json'],
        `/api/application/cloudsvc/hypervisors${query.api}`,
      );
    }

    // Every page of the table, as an operator would read them all.
    const rows: string[] = [];
    for (let page = 1; ; page++) {
      const text = await cli(['cloudsvc:hypervisors:list', '--per-page=100', `--page=${page}`]);
      expect(text.code).toBe(0);
      const [header, ...lines] = text.stdout.split('\n');
      expect(header).toMatch(/^UUID\s+NAME\s+STATUS\s+LOCATION\s+CPU FREE\/ALL/);
      expect(text.stdout).toMatch(/\d+ of \d+ hypervisors?$/m);
      rows.push(...lines);
      if (!text.stdout.includes(`next: --page ${page + 1}`)) break;
    }
    for (const hypervisor of made) {
      const row = rows.find((r) => r.startsWith(hypervisor.id));
      // Before its agent's first heartbeat nothing is known free.
      expect(row).toMatch(new RegExp(`${hypervisor.name}\\s+pending\\s+${location.code}\\s+-/32\\s`));
    }

    const first = await cli(['cloudsvc:hypervisors:list', '--per-page=1']);
    expect(first.stdout).toContain('next: --page 2');
  });

  it('refuses a cursor, a page out of range and stray arguments (exit 2)', async () => {
    for (const args of [['--cursor=abc'], ['--page=0'], ['--per-page=101'], ['hv-1']]) {
      const refused = await cli(['cloudsvc:hypervisors:list', ...args]);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toContain('usage: cloudsvc cloudsvc:hypervisors:list');
    }
  });
});
