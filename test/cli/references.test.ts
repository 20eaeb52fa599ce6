import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markInstanceDeleted } from '../../db/repositories/instances/instances.js';
import { listMigrations } from '../../db/repositories/moves/migration-lists.js';
import { seed } from '../support/seed.js';
import { type Stack, startStack } from '../support/stack.js';
import { operatorCli, settingsOf } from './operator-cli.js';

/**
 * Wherever the CLI takes an instance or a hypervisor, its name does as well as its uuid. Instance
 * names are their owners' labels, unique nowhere: a name several instances share is refused (exit 2,
 * nothing done) with the list of them, to be named by uuid.
 */
let t: Stack;
let locationId: string;
beforeAll(async () => {
  t = await startStack();
  locationId = (await seed.location(t.db)).id;
});
afterAll(() => t.close());

const cli = (args: string[]) => operatorCli(args, { settings: settingsOf(t.config) });
const uniqueName = () => `ref-${randomUUID().slice(0, 8)}`;

async function instanceNamed(name: string, userId: string) {
  const hypervisor = await seed.hypervisor(t.db, locationId);
  const instance = await seed.instance(t.db, { userId, locationId, hypervisorId: hypervisor.id, name });
  return { instance, hypervisor };
}

describe('an instance by name', () => {
  it('is the instance of that name, as its uuid is, every time and at once', async () => {
    const name = uniqueName();
    const { instance } = await instanceNamed(name, t.client.id);
    const byUuid = await cli(['cloudsvc:migration:preflight', instance.id, '--json']);
    const byName = await cli(['cloudsvc:migration:preflight', name, '--json']);
    expect(byName.stderr).toBe('');
    expect(byName.code).toBe(byUuid.code);
    // The instance each call was about; the hypervisors it weighs are the whole database's, which
    // other test files running beside this one add to.
    const about = (answer: { json(): { attributes: Record<string, unknown> } }) => {
      const { instance_uuid, source, mode } = answer.json().attributes;
      return { instance_uuid, source, mode };
    };
    expect(about(byUuid).instance_uuid).toBe(instance.id);
    expect(about(byName)).toEqual(about(byUuid));
    const [first, second] = await Promise.all([
      cli(['cloudsvc:migration:preflight', name, '--json']),
      cli(['cloudsvc:migration:preflight', name, '--json']),
    ]);
    expect(about(first!)).toEqual(about(byUuid));
    expect(about(second!)).toEqual(about(byUuid));

    const listed = await cli(['cloudsvc:migrations:list', `--instance=${name}`, '--json']);
    expect(listed.code).toBe(0);
    expect(listed.json().data).toEqual([]);
  });

  it('leaves a deleted instance out: the live one of the name is meant', async () => {
    const name = uniqueName();
    const { instance: gone } = await instanceNamed(name, t.client.id);
    await markInstanceDeleted(t.db, gone.id);
    const { instance: live } = await instanceNamed(name, t.client.id);
    const byName = await cli(['cloudsvc:migration:preflight', name, '--json']);
    expect(JSON.stringify(byName.json())).toContain(live.id);
    expect(JSON.stringify(byName.json())).not.toContain(gone.id);
  });

  it('refuses a name two instances share, listing both with owner, status and hypervisor, and starts nothing', async () => {
    const name = uniqueName();
    const [owner, other] = [await seed.user(t.db), await seed.user(t.db)];
    const a = await instanceNamed(name, owner.id);
    const b = await instanceNamed(name, other.id);
    for (const args of [
      ['cloudsvc:migration:preflight', name],
      ['cloudsvc:migration:start', name, '--mode=cold', '--force'],
      ['cloudsvc:storage-move:start', name, '--from=local', '--to=ceph', '--mode=cold', '--force'],
      ['cloudsvc:migrations:list', `--instance=${name}`],
    ]) {
      const refused = await cli(args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`2 instances are named ${name}; name the one you mean by its uuid:`);
      expect(refused.stderr).toContain(
        `${a.instance.id}  running  on ${a.hypervisor.name}  of ${owner.email}`,
      );
      expect(refused.stderr).toContain(
        `${b.instance.id}  running  on ${b.hypervisor.name}  of ${other.email}`,
      );
    }
    for (const { instance } of [a, b])
      expect(
        (await listMigrations(t.db, { instanceId: instance.id }, { page: 1, perPage: 5 })).records,
      ).toEqual([]);
  });

  it('refuses a name no live instance has (exit 2)', async () => {
    const refused = await cli(['cloudsvc:migration:preflight', uniqueName()]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/no instance is named ref-[0-9a-f]{8} \(nor is it a uuid\)/);
  });
});

describe('a hypervisor by name', () => {
  it('is the hypervisor of that name, as a positional argument, as --target and as a filter', async () => {
    const name = uniqueName();
    const { instance, hypervisor } = await instanceNamed(name, t.client.id);
    const target = await seed.hypervisor(t.db, locationId);

    const byUuid = await cli(['cloudsvc:evacuation:plan', hypervisor.id, '--json']);
    const byName = await cli(['cloudsvc:evacuation:plan', hypervisor.name, '--json']);
    expect(byName.code).toBe(byUuid.code);
    expect(byName.json()).toEqual(byUuid.json());

    const targeted = await cli(['cloudsvc:migration:preflight', name, `--target=${target.name}`, '--json']);
    expect(targeted.json()).toEqual(
      (await cli(['cloudsvc:migration:preflight', instance.id, `--target=${target.id}`, '--json'])).json(),
    );

    const listed = await cli(['cloudsvc:instances:list', `--hypervisor=${hypervisor.name}`, '--json']);
    expect(listed.json().data.map((d: { attributes: { uuid: string } }) => d.attributes.uuid)).toEqual([
      instance.id,
    ]);
  });

  it('refuses a name no hypervisor has, saying which option named it (exit 2)', async () => {
    const name = uniqueName();
    const { instance } = await instanceNamed(uniqueName(), t.client.id);
    const positional = await cli(['cloudsvc:evacuation:plan', name]);
    expect(positional.code).toBe(2);
    expect(positional.stderr).toContain(`no hypervisor is named ${name}`);
    const option = await cli(['cloudsvc:migration:preflight', instance.id, `--target=${name}`]);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain(`--target ${name}: no hypervisor is named ${name}`);
  });
});
