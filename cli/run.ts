import type { Database } from '../db/database.js';
import { createDatabase } from '../db/database.js';
import { type CliContext, type Command, UsageError } from './command.js';

function help(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: cloudsvc <command> [options]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'cloudsvc <command> --help shows a command’s options. DATABASE_URL selects the database.',
  ].join('\n');
}

export interface CliIo {
  readonly databaseUrl: string | undefined;
  out(line: string): void;
  err(line: string): void;
}

/** Runs one command line; returns the exit code. */
export async function runCli(commands: readonly Command[], argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    io.out(help(commands));
    return name ? 0 : 2;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`unknown command ${name}\n\n${help(commands)}`);
    return 2;
  }
  if (rest.includes('--help')) {
    io.out(`usage: cloudsvc ${command.usage}`);
    return 0;
  }

  let handle: { db: Database; close(): Promise<void> } | undefined;
  const ctx: CliContext = {
    db() {
      if (!io.databaseUrl)
        throw new UsageError('DATABASE_URL is not set (and no `npm start` stack is running)');
      handle ??= createDatabase({
        url: io.databaseUrl,
        poolSize: 1,
        namedStatements: false,
        applicationName: 'cloudsvc-cli',
      });
      return handle.db;
    },
    out: io.out,
  };
  try {
    await command.run(rest, ctx);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`cloudsvc ${name}: ${(error as Error).message}\nusage: cloudsvc ${command.usage}`);
      return 2;
    }
    io.err(`cloudsvc ${name} failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await handle?.close();
  }
}
