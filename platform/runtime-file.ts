import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where a running `npm start` stack tells other local tools (the CLI) how to reach it. Removed
 * when the stack stops.
 */
export interface RuntimeInfo {
  readonly databaseUrl: string;
  readonly temporalAddress: string;
  readonly apiUrl: string;
  readonly pid: number;
  /** The dev server's Web UI (absent with an external Temporal, and in files of older stacks). */
  readonly temporalUiUrl?: string;
  /** Where the stack's SECRETS_KEY is kept when it made one (absent when SECRETS_KEY was given). */
  readonly secretsKeyFile?: string;
}

export const dataDir = () => process.env.CLOUDSVC_DATA_DIR ?? join(process.cwd(), '.data');
const runtimePath = () => join(dataDir(), 'runtime.json');

export function writeRuntimeFile(info: RuntimeInfo): void {
  // It holds the database URL, with the embedded server's password: for its owner only.
  writeFileSync(runtimePath(), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
}

export function removeRuntimeFile(): void {
  rmSync(runtimePath(), { force: true });
}

export function readRuntimeFile(): RuntimeInfo | undefined {
  if (!existsSync(runtimePath())) return undefined;
  const info = JSON.parse(readFileSync(runtimePath(), 'utf8')) as RuntimeInfo;
  try {
    process.kill(info.pid, 0);
    return info;
  } catch {
    return undefined; // the stack that wrote it is gone
  }
}
