import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporalCli } from '../../platform/temporal-dev-server.js';

/**
 * What obtaining the Temporal CLI says (scripts/temporal-cli.sh, through temporalCli): that it
 * builds only when it does, and that it waits while another start builds it. `go` is a stand-in
 * here that takes a moment and leaves an executable where `go install` would: the build itself
 * is the real one's business, taking minutes.
 */
const VERSION = 'v1.5.1';
let cache: string;
let saved: NodeJS.ProcessEnv;

beforeEach(() => {
  saved = { ...process.env };
  const folder = mkdtempSync(join(tmpdir(), 'cloudsvc-temporal-cli-'));
  cache = join(folder, 'cache');
  const bin = join(folder, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'go'),
    '#!/bin/sh\necho "go: downloading go.temporal.io/server" >&2\nsleep 1\nprintf "#!/bin/sh\\n" > "$GOBIN/temporal"\nchmod +x "$GOBIN/temporal"\n',
  );
  chmodSync(join(bin, 'go'), 0o755);
  // No `temporal` on this PATH, no TEMPORAL_CLI: the script goes to its cache, and builds into it.
  process.env.PATH = `${bin}:/usr/bin:/bin`;
  process.env.XDG_CACHE_HOME = cache;
  delete process.env.TEMPORAL_CLI;
});
afterEach(() => {
  process.env = saved;
});

const built = () => join(cache, 'cloudsvc/temporal-cli', VERSION, 'temporal');

async function obtain(): Promise<{ path: string; said: string[] }> {
  const said: string[] = [];
  const path = await temporalCli((line) => said.push(line));
  return { path, said };
}

describe('obtaining the Temporal CLI', () => {
  it('says it builds when it builds, and nothing once it is built', async () => {
    const first = await obtain();
    expect(first.path).toBe(built());
    expect(existsSync(built())).toBe(true);
    expect(first.said).toEqual([
      expect.stringMatching(/^Building the Temporal CLI v1\.5\.1 with go install/),
    ]);
    // go's own output is in the build's log, not in what a newcomer reads.
    expect(first.said.join('\n')).not.toContain('go: downloading');

    const again = await obtain();
    expect(again).toEqual({ path: built(), said: [] });
  });

  it('says it waits while another start builds it, and takes that build', async () => {
    // Another start holds the build's lock for two seconds, then leaves the CLI built.
    const folder = join(cache, 'cloudsvc/temporal-cli', VERSION);
    mkdirSync(folder, { recursive: true });
    const other = spawn('flock', [
      `${folder}.lock`,
      'sh',
      '-c',
      `sleep 2; printf '#!/bin/sh\\n' > ${built()}; chmod +x ${built()}`,
    ]);
    const otherDone = new Promise((r) => other.once('close', r));
    await new Promise((r) => setTimeout(r, 300));
    const waited = await obtain();
    await otherDone;
    expect(waited.path).toBe(built());
    expect(waited.said).toEqual([
      expect.stringMatching(/^Waiting for another build of the Temporal CLI v1\.5\.1/),
    ]);
  });

  it('two starts at once: one builds, the other waits for it', async () => {
    const [a, b] = await Promise.all([obtain(), obtain()]);
    expect(a.path).toBe(built());
    expect(b.path).toBe(built());
    const said = [...a.said, ...b.said].map((line) => line.split(' ')[0]).sort();
    expect(said).toEqual(['Building', 'Waiting']);
  });
});
