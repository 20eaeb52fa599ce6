/**
 * A fleet of agents on one API process, grown to 1, 50, 200 and 500 (FLEET_SIZES): hypervisors in
 * a location of their own, each with its instances (FLEET_INSTANCES_PER_AGENT) in the database and
 * on its simulated hypervisor, each agent enrolled, heartbeating, long-polling with its default
 * pollers and sending its samples at the documented interval, many agents to a process
 * (fleet-process.ts), a new process for each growth.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { upsertLocation } from '../../db/repositories/catalogue/catalog.js';
import { insertHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import type { BenchStack } from '../stack.js';
import type { FleetMember } from './fleet-process.js';

export const FLEET_INSTANCES_PER_AGENT = Number(process.env.BENCH_SCALE_INSTANCES_PER_AGENT ?? 20);
const ONLINE_LIMIT_MS = 120_000;
/** The most tasks an agent runs at once (AGENT_CONCURRENCY's bound). */
export const FIRST_AGENT_CONCURRENCY = 64;

export interface Fleet {
  readonly hypervisors: readonly string[];
  /** Grows the fleet to `size` agents, all online. */
  grow(size: number): Promise<void>;
  /** The times of every metrics call the agents made so far, ms. */
  metricCalls(): number[];
  close(): Promise<void>;
}

async function onlineCount(db: Database, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const row = await db
    .selectFrom('hypervisors')
    .select(sql<string>`count(*)`.as('n'))
    .where('id', 'in', ids)
    .where('status', '=', 'online')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function startFleet(stack: BenchStack, ownerId: string): Promise<Fleet> {
  const { db } = stack;
  const location = await upsertLocation(db, { code: 'scale-fleet', name: 'Scale fleet' });
  const folder = mkdtempSync(join(tmpdir(), 'scale-fleet-'));
  const hypervisors: string[] = [];
  const processes: { child: ChildProcess; stats: string }[] = [];

  const grow = async (size: number) => {
    const members: FleetMember[] = [];
    const added: string[] = [];
    for (let i = hypervisors.length; i < size; i++) {
      const hv = await insertHypervisor(db, {
        name: `scale-fleet-${i}`,
        locationId: location.id,
        cpuCores: 64,
        memoryMb: 262_144,
        diskMb: 4_000_000,
        capabilities: [],
        storageBackends: ['local'],
      });
      const { rows } = await sql<{ id: string }>`
        insert into instances (user_id, location_id, hypervisor_id, name, hostname, status, cpu_cores, memory_mb,
                               disk_mb, virtualization, boot_order, created_at, updated_at)
        select ${ownerId}, ${location.id}, ${hv.id}, 'fleet-' || ${i} || '-' || g, 'fleet-' || ${i} || '-' || g || '.example.test',
               'running', 1, 512, 2048, 'kvm', '["disk"]', now(), now()
          from generate_series(1, ${FLEET_INSTANCES_PER_AGENT}::int) g
        returning id`.execute(db);
      const token = await createCredential(db, {
        type: 'enrollment',
        hypervisorId: hv.id,
        expiresAt: new Date(Date.now() + ONLINE_LIMIT_MS),
      });
      const stateDir = join(folder, `agent-${i}`);
      mkdirSync(stateDir);
      // The first agent alone takes the whole pickup load (fleet-figures.ts): room for all of it.
      const concurrency = i === 0 ? FIRST_AGENT_CONCURRENCY : undefined;
      members.push({ token: token.token, stateDir, instances: rows.map((r) => r.id), concurrency });
      added.push(hv.id);
    }
    if (members.length === 0) return;
    hypervisors.push(...added);
    const file = join(folder, `fleet-${processes.length}.json`);
    const stats = join(folder, `fleet-${processes.length}-stats.json`);
    writeFileSync(file, JSON.stringify(members));
    const child = stack.launch('bench/scale/fleet-process.ts', {
      AGENT_PANEL_URL: stack.apiUrl,
      FLEET_FILE: file,
      FLEET_STATS_FILE: stats,
    });
    processes.push({ child, stats });
    const deadline = performance.now() + ONLINE_LIMIT_MS;
    while ((await onlineCount(db, hypervisors)) < hypervisors.length) {
      if (child.exitCode !== null) throw new Error(`a fleet process ended (${child.exitCode})`);
      if (performance.now() > deadline) throw new Error(`the fleet of ${size} did not come online`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  const metricCalls = () =>
    processes.flatMap(({ stats }) => {
      try {
        return (JSON.parse(readFileSync(stats, 'utf8')) as { metricCalls: number[] }).metricCalls;
      } catch {
        return [];
      }
    });

  return {
    hypervisors,
    grow,
    metricCalls,
    close: async () => {
      for (const { child } of processes) await stack.kill(child);
    },
  };
}
