import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** What one process holds: its resident memory and its TCP connections. */
export interface ProcessUse {
  readonly part: string;
  readonly rssMb: number;
  readonly connections: number;
}

/** Resident memory of a process, from /proc (0 once it is gone). */
function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** Established TCP connections by owning pid (`ss`, from iproute2). */
function connectionsByPid(): Map<number, number> {
  const counts = new Map<number, number>();
  for (const line of execFileSync('ss', ['-tnpH', 'state', 'established'], { encoding: 'utf8' }).split('\n'))
    for (const match of line.matchAll(/pid=(\d+)/g)) {
      const pid = Number(match[1]);
      counts.set(pid, (counts.get(pid) ?? 0) + 1);
    }
  return counts;
}

/** Each named process's memory and connections now. */
export function processUse(parts: Record<string, number | undefined>): ProcessUse[] {
  const connections = connectionsByPid();
  return Object.entries(parts).map(([part, pid]) => ({
    part,
    rssMb: pid ? rssMb(pid) : 0,
    connections: pid ? (connections.get(pid) ?? 0) : 0,
  }));
}

/** PostgreSQL's connections by database: cloudsvc's and Temporal's. */
export async function databaseConnections(db: Database): Promise<Record<string, number>> {
  const { rows } = await sql<{ datname: string; n: number }>`
    select datname, count(*)::int as n from pg_stat_activity where datname is not null group by datname order by datname`.execute(
    db,
  );
  return Object.fromEntries(rows.map((r) => [r.datname, r.n]));
}
