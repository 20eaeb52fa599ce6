import type { Database } from '../db/database.js';
import { createDatabase } from '../db/database.js';
import { ApiError } from '../domain/errors.js';
import { loadConfig } from '../platform/config.js';
import { createLogger, type LogLevel } from '../platform/logger.js';
import { connectTemporal, type TemporalHandle } from '../platform/temporal.js';
import type { ServiceDeps } from '../services/context.js';
import { type CliContext, type Command, EXIT, UsageError } from './command.js';

function help(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: cloudsvc <command> [options]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'cloudsvc <command> --help shows a command’s options. DATABASE_URL selects the database.',
    'Exit codes: 0 done; 1 failed, blocked or refused; 2 bad usage (nothing changed).',
  ].join('\n');
}

export interface CliIo {
  readonly databaseUrl: string | undefined;
  /**
   * The settings services read (platform/config.ts), as the server reads them: the environment,
   * with a running `npm start` stack's addresses filled in (cli/main.ts). Default: process.env.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Asks on the operator's terminal; absent when stdin is not one. */
  readonly ask?: (question: string) => Promise<string>;
  out(line: string): void;
  err(line: string): void;
}

/** A refusal of a service: unknown resources and bad input are the caller's mistake (2), the rest a refusal (1). */
function exitFor(error: ApiError): number {
  return error.status === 404 || error.status === 400 ? EXIT.usage : EXIT.failed;
}

/** Runs one command line; returns the exit code. */
export async function runCli(commands: readonly Command[], argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    io.out(help(commands));
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`unknown command ${name}\n\n${help(commands)}`);
    return EXIT.usage;
  }
  if (rest.includes('--help')) {
    io.out(`usage: cloudsvc ${command.usage}`);
    return EXIT.ok;
  }

  let database: { db: Database; close(): Promise<void> } | undefined;
  let temporal: TemporalHandle | undefined;
  let services: ServiceDeps | undefined;
  const ctx: CliContext = {
    db() {
      if (!io.databaseUrl)
        throw new UsageError('DATABASE_URL is not set (and no `npm start` stack is running)');
      database ??= createDatabase({
        url: io.databaseUrl,
        poolSize: 1,
        namedStatements: false,
        applicationName: 'cloudsvc-cli',
      });
      return database.db;
    },
    async services() {
      if (services) return services;
      const env = io.env ?? process.env;
      let config: ServiceDeps['config'];
      try {
        config = loadConfig({ ...env, DATABASE_URL: io.databaseUrl ?? env.DATABASE_URL });
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const db = ctx.db();
      temporal = await connectTemporal(config);
      // Server-side logs would mix with the command's output: they go to stderr, warnings only unless asked.
      const level: LogLevel = env.LOG_LEVEL ? config.LOG_LEVEL : 'warn';
      const logger = createLogger(level, { service: 'cli', command: name }, (line) =>
        io.err(line.replace(/\n$/, '')),
      );
      services = { db, temporal: temporal.client, config, logger };
      return services;
    },
    out: io.out,
    err: io.err,
    ask: io.ask,
  };
  try {
    return (await command.run(rest, ctx)) ?? EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`cloudsvc ${name}: ${(error as Error).message}\nusage: cloudsvc ${command.usage}`);
      return EXIT.usage;
    }
    if (error instanceof ApiError) {
      io.err(`cloudsvc ${name}: ${error.code}: ${error.detail}`);
      return exitFor(error);
    }
    io.err(`cloudsvc ${name} failed: ${(error as Error).message}`);
    return EXIT.failed;
  } finally {
    await temporal?.close();
    await database?.close();
  }
}
