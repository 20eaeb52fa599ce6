import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackupStack, startBackupStack } from '../support/backups.js';
import type { Body } from '../support/http.js';

/**
 * An instance's firewall through the Client API and real (in-process) agents: rules replaced as a
 * set, the toggle keeping them, every sub-path; after each change the hypervisor holds exactly the
 * set the panel shows, and a failed change leaves both with the set before.
 */
let t: BackupStack;
beforeAll(async () => {
  t = await startBackupStack({ FIREWALL_RULES_MAX: '3' });
});
afterAll(() => t.close());

const SSH = { direction: 'inbound', protocol: 'tcp', port: '22', cidr: '0.0.0.0/0', action: 'accept' };
const WEB = {
  direction: 'inbound',
  protocol: 'tcp',
  port: '8000-8100',
  cidr: '2001:db8::/32',
  action: 'accept',
};
const PING = {
  direction: 'inbound',
  protocol: 'icmp',
  cidr: '198.51.100.7',
  action: 'drop',
  description: 'no ping',
};

/** The firewall the panel shows once no change is under way, checked against the hypervisor's. */
async function agreed(instanceId: string): Promise<Body> {
  await t.settled(instanceId);
  const shown = (await t.api('GET', `/${instanceId}/firewall`)).body.attributes;
  const onHost = t.hostOf(instanceId).hypervisor().instances[instanceId]!.firewall;
  expect(shown.in_sync).toBe(true);
  expect(onHost?.revision ?? 0).toBe(shown.revision);
  expect(onHost?.enabled ?? false).toBe(shown.enabled);
  const port = (r: { port_from: number | null; port_to: number | null }) =>
    r.port_from === null
      ? null
      : r.port_from === r.port_to
        ? `${r.port_from}`
        : `${r.port_from}-${r.port_to}`;
  expect(
    (onHost?.rules ?? []).map((r) => ({ ...r, port: port(r), port_from: undefined, port_to: undefined })),
  ).toEqual(shown.rules.map((r: Body) => ({ ...r, description: undefined })));
  return shown;
}

async function change(instanceId: string, method: string, path: string, body?: unknown): Promise<Body> {
  const res = await t.api(method, `/${instanceId}/firewall${path}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await t.settled(instanceId);
  return res.body.attributes;
}

describe('the firewall', () => {
  it('starts off and empty; rules are replaced as a set, in order, twice in a row, and the toggle keeps them', async () => {
    const { id } = await t.instance();
    for (const path of ['', '/rules', '/enabled'])
      expect((await t.api('GET', `/${id}/firewall${path}`)).body.attributes).toMatchObject({
        enabled: false,
        rules: [],
        rule_limit: 3,
        in_sync: true,
      });

    const accepted = await change(id, 'PUT', '/rules', { rules: [SSH, WEB, PING] });
    expect(accepted).toMatchObject({ enabled: false, in_sync: false });
    let shown = await agreed(id);
    expect(shown.rules).toEqual([
      { ...SSH, description: null },
      { ...WEB, description: null },
      { ...PING, port: null, cidr: '198.51.100.7/32' },
    ]);
    expect(await t.latestTask(id)).toMatchObject({ operation: 'firewall_apply', state: 'succeeded' });

    await change(id, 'PUT', '/rules', { rules: [PING, SSH] });
    await change(id, 'PUT', '/enabled', { enabled: true });
    shown = await agreed(id);
    expect(shown).toMatchObject({ enabled: true });
    expect(shown.rules.map((r: Body) => r.protocol)).toEqual(['icmp', 'tcp']);

    await change(id, 'PUT', '/enabled', { enabled: true });
    await change(id, 'DELETE', '/enabled');
    shown = await agreed(id);
    expect(shown).toMatchObject({ enabled: false });
    expect(shown.rules).toHaveLength(2);
    expect((await t.api('GET', `/${id}`)).body.attributes.status).toBe('running');
  });

  it('PUT /firewall sets both at once; DELETE /firewall/rules and DELETE /firewall clear', async () => {
    const { id } = await t.instance();
    await change(id, 'PUT', '', { enabled: true, rules: [SSH] });
    expect(await agreed(id)).toMatchObject({ enabled: true, rules: [{ port: '22' }] });
    await change(id, 'DELETE', '/rules');
    expect(await agreed(id)).toMatchObject({ enabled: true, rules: [] });
    await change(id, 'PUT', '/rules', { rules: [WEB] });
    await change(id, 'DELETE', '');
    expect(await agreed(id)).toMatchObject({ enabled: false, rules: [] });
  });

  it('refuses bad rules naming the field, and changes nothing', async () => {
    const { id } = await t.instance();
    await change(id, 'PUT', '/rules', { rules: [SSH] });
    const before = await agreed(id);
    const cases: [unknown, string][] = [
      [{ ...SSH, direction: 'sideways' }, 'rules.0.direction'],
      [{ ...SSH, protocol: 'sctp' }, 'rules.0.protocol'],
      [{ ...SSH, action: 'reject' }, 'rules.0.action'],
      [{ ...SSH, port: '0' }, 'rules.0.port'],
      [{ ...SSH, port: '70000' }, 'rules.0.port'],
      [{ ...SSH, port: '100-90' }, 'rules.0.port'],
      [{ ...SSH, port: '22,80' }, 'rules.0.port'],
      [{ ...SSH, protocol: 'icmp' }, 'rules.0.port'],
      [{ ...SSH, cidr: '10.0.0.1/8' }, 'rules.0.cidr'],
      [{ ...SSH, cidr: '10.0.0.0/33' }, 'rules.0.cidr'],
      [{ ...SSH, cidr: 'example.com' }, 'rules.0.cidr'],
      [{ ...PING, cidr: '2001:db8::/32' }, 'rules.0.protocol'],
      [{ ...SSH, priority: 1 }, 'rules.0.priority'],
    ];
    for (const [rule, field] of cases) {
      const res = await t.api('PUT', `/${id}/firewall/rules`, { rules: [rule] });
      expect(res.status, JSON.stringify(rule)).toBe(400);
      expect(res.body.errors[0].source.field, JSON.stringify(rule)).toBe(field);
    }
    const tooMany = await t.api('PUT', `/${id}/firewall/rules`, { rules: [SSH, SSH, SSH, SSH] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0]).toMatchObject({ source: { field: 'rules' }, detail: 'At most 3 rules.' });
    expect((await t.api('PUT', `/${id}/firewall/enabled`, { enabled: 'yes' })).status).toBe(400);
    expect((await t.api('PUT', `/${id}/firewall`, { enabled: true })).status).toBe(400);
    expect(await agreed(id)).toEqual(before);
  });

  it('two changes at once: one is accepted, the other refused with SVC-OP-409', async () => {
    const { id } = await t.instance();
    const answers = await Promise.all([
      t.api('PUT', `/${id}/firewall/rules`, { rules: [SSH] }),
      t.api('PUT', `/${id}/firewall/enabled`, { enabled: true }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    const shown = await agreed(id);
    expect(shown.revision).toBe(1);
  });

  it('a hypervisor that fails the change leaves both with the set before', async () => {
    const { id, agent } = await t.instance();
    await change(id, 'PUT', '', { enabled: true, rules: [SSH] });
    const before = await agreed(id);
    agent.armFault('firewall.apply', { mode: 'fail-permanently' });
    await change(id, 'PUT', '/rules', { rules: [WEB, PING] });
    let shown = await agreed(id);
    expect({ enabled: shown.enabled, rules: shown.rules }).toEqual({
      enabled: before.enabled,
      rules: before.rules,
    });
    expect(await t.latestTask(id)).toMatchObject({ operation: 'firewall_apply', state: 'failed' });

    agent.armFault('firewall.apply', { mode: 'fail-after' });
    await change(id, 'DELETE', '');
    shown = await agreed(id);
    expect({ enabled: shown.enabled, rules: shown.rules }).toEqual({
      enabled: before.enabled,
      rules: before.rules,
    });
  });

  it('another customer’s instance answers 404 on every path', async () => {
    const { id } = await t.instance();
    const as = (method: string, path: string, body?: unknown) =>
      t.env.call(t.env.stranger, method, `/api/client/cloud/${id}/firewall${path}`, body);
    for (const path of ['', '/rules', '/enabled']) {
      expect((await as('GET', path)).status).toBe(404);
      expect((await as('DELETE', path)).status).toBe(404);
    }
    expect((await as('PUT', '/rules', { rules: [SSH] })).status).toBe(404);
    expect((await as('PUT', '/enabled', { enabled: true })).status).toBe(404);
    expect(await agreed(id)).toMatchObject({ revision: 0, rules: [] });
  });
});
