import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../db/database.js';
import {
  CUSTOMER_EVENT_TYPES,
  EVENT_CATALOGUE,
  EVENT_TYPES,
  eventAudience,
  INSTANCE_STATUS_EVENTS,
} from '../../domain/events/catalogue.js';
import { checkEndpointEventTypes } from '../../domain/events/endpoints.js';
import { OUTBOX_RULES } from '../../domain/events/outbox-rules.js';

/** docs/events.md "Recorded with the change": the triggers hold the catalogue's rules, and nothing else. */
const database = createDatabase({ url: inject('databaseUrl'), poolSize: 2, namedStatements: false });
const db = database.db;
afterAll(() => database.close());

/** Each trigger that runs the recorder, with its resource and its rules as it was given them. */
async function recorderTriggers() {
  const { rows } = await sql<{ table: string; name: string; args: Buffer }>`
    select c.relname as table, t.tgname as name, t.tgargs as args
      from pg_trigger t
      join pg_proc p on p.oid = t.tgfoid
      join pg_class c on c.oid = t.tgrelid
     where p.proname = 'outbox_record_change' and not t.tgisinternal`.execute(db);
  return rows.map((row) => {
    const [resource, rules] = row.args.toString('utf8').split('\0');
    return { table: row.table, name: row.name, resource: resource!, rules: JSON.parse(rules!) as unknown[] };
  });
}

const byType = (rules: readonly unknown[]) =>
  [...rules].sort((a, b) => String((a as { type: string }).type).localeCompare((b as { type: string }).type));

describe('the recorder’s rules', () => {
  it('are, table by table, the catalogue’s OUTBOX_RULES for the resource each table records', async () => {
    const triggers = await recorderTriggers();
    const held: Record<string, unknown[]> = {};
    for (const trigger of triggers)
      held[trigger.resource] = [...(held[trigger.resource] ?? []), ...trigger.rules];
    expect(Object.keys(held).sort()).toEqual(Object.keys(OUTBOX_RULES).sort());
    for (const [resource, rules] of Object.entries(OUTBOX_RULES))
      expect(byType(held[resource]!), resource).toEqual(byType(rules));
  });

  it('record every event of the catalogue once, each of its own resource, beside the first triggers', () => {
    const first = [
      'instance.created',
      'instance.suspended',
      'instance.unsuspended',
      'operation.failed',
      'webhook_endpoint.disabled',
      ...Object.values(INSTANCE_STATUS_EVENTS),
    ];
    const ruled = Object.entries(OUTBOX_RULES).flatMap(([resource, rules]) =>
      rules.map((rule) => {
        expect(EVENT_CATALOGUE[rule.type].resource, rule.type).toBe(resource);
        return rule.type;
      }),
    );
    expect([...first, ...ruled].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('read no secret column: each subject function names its columns, and none of these', async () => {
    const { rows } = await sql<{ name: string; definition: string }>`
      select p.proname as name, pg_get_functiondef(p.oid) as definition
        from pg_proc p where p.proname like 'outbox\\_%\\_subject'`.execute(db);
    expect(rows.map((r) => r.name).sort()).toEqual(
      Object.keys(OUTBOX_RULES)
        .map((resource) => `outbox_${resource}_subject`)
        .sort(),
    );
    for (const { name, definition } of rows) {
      for (const secret of ['password', 'token_hash', 'secret', 'sealed', 'to_jsonb'])
        expect(definition, `${name} reads ${secret}`).not.toContain(secret);
    }
  });
});

describe('audiences', () => {
  it('keeps the plane’s own events (migrations, evacuations, hypervisors) from customers’ endpoints', () => {
    const plane = EVENT_TYPES.filter((type) => eventAudience(type) === 'plane');
    expect(new Set(plane.map((type) => EVENT_CATALOGUE[type].resource))).toEqual(
      new Set(['migration', 'evacuation', 'hypervisor']),
    );
    expect(CUSTOMER_EVENT_TYPES.some((type) => plane.includes(type))).toBe(false);
    expect(checkEndpointEventTypes(false, ['instance.running', 'hypervisor.online'])).toMatch(
      /hypervisor\.online/,
    );
    expect(checkEndpointEventTypes(false, ['instance.running'])).toBeUndefined();
    expect(checkEndpointEventTypes(true, ['hypervisor.online'])).toBeUndefined();
  });
});
