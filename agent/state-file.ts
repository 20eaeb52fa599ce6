import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** A JSON file written atomically (temporary file, then rename), so a crash never leaves half of it. */
export class StateFile<T> {
  constructor(
    readonly path: string,
    private readonly initial: () => T,
    private readonly mode = 0o600,
  ) {}

  read(): T {
    if (!existsSync(this.path)) return this.initial();
    return JSON.parse(readFileSync(this.path, 'utf8')) as T;
  }

  write(value: T): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode: this.mode });
    renameSync(tmp, this.path);
  }
}
