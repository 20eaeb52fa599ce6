import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIRTUALIZATIONS } from '../../domain/catalog.js';
import { BOOT_DEVICES, INSTANCE_BOOT_ORDER } from '../../domain/instances/statuses.js';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import { type Body, json } from '../support/http.js';
import { seed } from '../support/seed.js';

/**
 * The instance envelope's `virtualization` and `boot_order` are enums: the OpenAPI document says
 * which values, the table refuses any other, and an instance ordered through the API has the one
 * boot order every instance has (read-only; docs/api.md "Boot order").
 */
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack();
});
afterAll(() => t.close());

describe('virtualization and boot_order of an instance', () => {
  it('are enums in the Client API document', async () => {
    const doc = await json(await t.env.app.request('/openapi/client.json'));
    const attributes: Body = doc.components.schemas.InstanceAttributes.properties;
    expect(attributes.virtualization.enum).toEqual([...VIRTUALIZATIONS]);
    expect(attributes.boot_order.items.enum).toEqual([...BOOT_DEVICES]);
    expect(attributes.boot_order.description).toMatch(/Read-only/);
  });

  it('outside their values are refused by the table, and the row is unchanged', async () => {
    const location = await seed.location(t.env.db);
    const instance = await seed.instance(t.env.db, { userId: t.env.client.id, locationId: location.id });
    const set = (column: 'virtualization' | 'boot_order', value: string) =>
      sql`update instances set ${sql.ref(column)} = ${value}::${sql.raw(column === 'boot_order' ? 'jsonb' : 'text')}
          where id = ${instance.id}`.execute(t.env.db);
    for (const [column, value] of [
      ['virtualization', 'xen'],
      ['virtualization', 'KVM'],
      ['boot_order', '["floppy"]'],
      ['boot_order', '[]'],
      ['boot_order', '"disk"'],
    ] as const) {
      await expect(set(column, value), `${column} ${value}`).rejects.toThrow(/check constraint/);
    }
    await set('boot_order', '["cdrom", "disk"]');
    const shown = await t.api('GET', `/${instance.id}`);
    expect(shown.body.attributes).toMatchObject({ virtualization: 'kvm', boot_order: ['cdrom', 'disk'] });
  });

  it('of an instance ordered through the API: its image’s virtualization, disk then CD-ROM, as its hypervisor was told', async () => {
    const { id, agent } = await t.instance();
    const shown = await t.api('GET', `/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.attributes).toMatchObject({
      virtualization: 'kvm',
      boot_order: [...INSTANCE_BOOT_ORDER],
    });
    expect(agent.hypervisor().instances[id]?.boot_order).toEqual([...INSTANCE_BOOT_ORDER]);
  });
});
