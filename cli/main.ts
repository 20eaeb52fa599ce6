import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { readRuntimeFile } from '../platform/runtime-file.js';
import { COMMANDS } from './commands/index.js';
import { lineWriter } from './output.js';
import { runCli } from './run.js';

// Without DATABASE_URL, the CLI works on a running `npm start` stack: its database, its Temporal,
// its Web UI and its secrets key, unless the environment names them.
const env = process.env;
const runtime = env.DATABASE_URL ? undefined : readRuntimeFile();
const databaseUrl = env.DATABASE_URL ?? runtime?.databaseUrl;

/** The stack's key, when this user may read it; without one, a command that seals a secret says so. */
function stackSecretsKey(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

async function ask(question: string): Promise<string> {
  // The question goes to stderr: stdout stays the command's output.
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await terminal.question(question);
  } finally {
    terminal.close();
  }
}

process.exitCode = await runCli(COMMANDS, process.argv.slice(2), {
  databaseUrl,
  env: {
    ...env,
    TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS ?? runtime?.temporalAddress,
    TEMPORAL_UI_URL: env.TEMPORAL_UI_URL ?? runtime?.temporalUiUrl,
    SECRETS_KEY: env.SECRETS_KEY ?? stackSecretsKey(runtime?.secretsKeyFile),
  },
  ...(process.stdin.isTTY ? { ask } : {}),
  out: lineWriter(process.stdout),
  err: lineWriter(process.stderr),
});
