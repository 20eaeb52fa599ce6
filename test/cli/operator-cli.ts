import { COMMANDS } from '../../cli/commands/index.js';
import { runCli } from '../../cli/run.js';
import type { Config } from '../../platform/config.js';
import type { Body } from '../support/http.js';

/** The server's own settings, as the environment a CLI on the same machine would read. */
export function settingsOf(config: Config, overrides: Record<string, string> = {}) {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) if (value !== undefined) env[key] = String(value);
  return { ...env, ...overrides };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON document. */
  json(): Body;
}

/**
 * One command line through the CLI's runner with the real commands, in this process;
 * `answer` plays the operator at a terminal (without it, stdin is not one).
 */
export async function operatorCli(
  args: string[],
  options: { settings: Record<string, string>; answer?: string },
): Promise<CliRun> {
  const { settings, answer } = options;
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(COMMANDS, args, {
    databaseUrl: settings.DATABASE_URL,
    env: settings,
    ...(answer === undefined
      ? {}
      : {
          async ask(question: string) {
            err.push(question);
            return answer;
          },
        }),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  const stdout = out.join('\n');
  return { code, stdout, stderr: err.join('\n'), json: () => JSON.parse(stdout) };
}
