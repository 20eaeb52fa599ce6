import { readRuntimeFile } from '../platform/runtime-file.js';
import { COMMANDS } from './commands/index.js';
import { runCli } from './run.js';

// Without DATABASE_URL, the CLI uses the database of a running `npm start` stack.
const databaseUrl = process.env.DATABASE_URL ?? readRuntimeFile()?.databaseUrl;
process.exitCode = await runCli(COMMANDS, process.argv.slice(2), {
  databaseUrl,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
