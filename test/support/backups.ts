import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ConfigOverrides } from './config.js';
import { eventually } from './eventually.js';
import type { Body } from './http.js';
import { seed } from './seed.js';
import { type Stack, startStack } from './stack.js';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A customer with instances made through `POST /` in a location of two hypervisors whose agents
 * (in this process) share one backup store, as a location's hypervisors do: what the backup,
 * snapshot and schedule tests drive through the Client API.
 */
export async function startBackupStack(overrides: ConfigOverrides = {}) {
  const env: Stack = await startStack({
    agents: true,
    config: { INSTANCE_CREATE_RATE_LIMIT_PER_MINUTE: '1000', ...overrides },
  });
  const store = mkdtempSync(join(tmpdir(), 'backup-store-'));
  const location = await seed.location(env.db);
  const pool = await seed.uniqueIpv4Pool(env.db, location.id);
  const catalog = await seed.catalog(env.db);
  const hosts = [
    await env.hypervisorWithAgent({ AGENT_SIM_BACKUP_DIR: store }, { locationId: location.id }),
    await env.hypervisorWithAgent({ AGENT_SIM_BACKUP_DIR: store }, { locationId: location.id }),
  ];

  /** A request of the client to the Client API's instances (`path` under /api/client/cloud). */
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    env.client.call(method, `/api/client/cloud${path}`, body, headers);

  /** The instance's status once no operation holds it. */
  async function settled(instanceId: string, status?: string): Promise<Body> {
    return eventually(
      async () => {
        const row = await env.db
          .selectFrom('instances')
          .select(['status', 'operation_id'])
          .where('id', '=', instanceId)
          .executeTakeFirstOrThrow();
        if (row.operation_id !== null || (status !== undefined && row.status !== status)) return undefined;
        return (await api('GET', `/${instanceId}`)).body.attributes;
      },
      // Fifty provisionings at once on a loaded machine take longer than one.
      60_000,
      `instance ${instanceId} to settle${status ? ` ${status}` : ''}`,
    );
  }

  /** A running instance of the customer, created through the Client API. */
  async function instance(): Promise<{ id: string; agent: (typeof hosts)[number]['agent'] }> {
    const res = await api('POST', '/', {
      hostname: `web-${randomUUID().slice(0, 6)}.example.com`,
      plan: catalog.plan.code,
      image: catalog.image.code,
      location: location.code,
    });
    expect(res.status).toBe(202);
    const id: string = res.body.attributes.uuid;
    await settled(id, 'running');
    return { id, agent: hostOf(id) };
  }

  /** The in-process agent of the hypervisor the instance is on. */
  function hostOf(instanceId: string) {
    const host = hosts.find((h) => h.agent.hypervisor().instances[instanceId]);
    if (!host) throw new Error(`instance ${instanceId} is on no hypervisor`);
    return host.agent;
  }

  /** A row of the instance's list at `path` once `ready` holds for it. */
  async function listed(path: string, id: string, ready: (attributes: Body) => boolean, what: string) {
    return eventually(
      async () => {
        const list = (await api('GET', `${path}?per_page=100`)).body;
        const found = list.data.find((b: Body) => b.attributes.uuid === id)?.attributes;
        return found && ready(found) ? found : undefined;
      },
      20_000,
      what,
    );
  }

  /** A backup of the instance, made and `available`. */
  async function backup(instanceId: string, name?: string): Promise<Body> {
    const res = await api('POST', `/${instanceId}/backups`, name === undefined ? {} : { name });
    expect(res.status).toBe(202);
    const { uuid } = res.body.attributes;
    const made = await listed(`/${instanceId}/backups`, uuid, (b) => b.state !== 'creating', 'the backup');
    expect(made.state).toBe('available');
    await settled(instanceId);
    return made;
  }

  const diskOf = (instanceId: string) => hostOf(instanceId).hypervisor().instances[instanceId]!.disk!;
  const storeOf = () => hosts[0]!.agent.driver.backupStore();

  return {
    env,
    api,
    location,
    /** The location's IPv4 pool, a range of this environment's own. */
    pool,
    catalog,
    hosts,
    settled,
    instance,
    hostOf,
    listed,
    backup,
    diskOf,
    storeOf,
    /** The instance's newest task (operation), as the customer sees it. */
    async latestTask(instanceId: string): Promise<Body> {
      return (await api('GET', `/${instanceId}/tasks?per_page=1`)).body.data[0].attributes;
    },
    async close() {
      await env.close();
      rmSync(store, { recursive: true, force: true });
    },
  };
}

export type BackupStack = Awaited<ReturnType<typeof startBackupStack>>;
