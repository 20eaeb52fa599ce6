import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** KEY=value lines of an env file, as Compose reads .env (no quotes or expansion used in ours). */
export function envFile(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/^([A-Z_][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!.trim()] as const),
  );
}

/**
 * Compose's interpolation of the forms our file uses: `$$` is a `$`; `${X}`, `${X:-default}`,
 * `${X:?message}` take the env file's value. What the containers see. The full loader, strict
 * about unknown keys and unset variables, is tools/compose-check (test/deploy/compose-config.test.ts).
 */
export function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$|\$\{([A-Z_][A-Z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (whole, name, operator, rest) => {
    if (whole === '$$') return '$';
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (operator?.endsWith('-')) return rest;
    throw new Error(`${name} is not set${operator?.endsWith('?') ? `: ${rest}` : ''}`);
  });
}

export interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  entrypoint?: string[];
  restart?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
  ports?: string[];
  healthcheck?: { test?: string[] };
  deploy?: { replicas?: number };
}

/** docker-compose.yml with .env.example's settings, as the containers get it. */
export function composeProject(): { services: Record<string, ComposeService> } {
  const env = envFile(readFileSync(`${root}.env.example`, 'utf8'));
  return parse(interpolate(readFileSync(`${root}docker-compose.yml`, 'utf8'), env), { merge: true });
}
