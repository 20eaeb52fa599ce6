import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort, isPortOpen } from '../../platform/ports.js';
import { eventually } from '../support/eventually.js';
import { json } from '../support/http.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Started {
  child: ChildProcess;
  output: string[];
  apiUrl: string;
  clientKey: string;
  applicationKey: string;
}

/** `npm start` exactly as the README shows it, on its own ports and data folder, with the embedded database. */
async function npmStart(dataDir: string, ports: Record<string, number>): Promise<Started> {
  const output: string[] = [];
  const { DATABASE_URL: _external, TEMPORAL_ADDRESS: _cluster, ...env } = process.env;
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: {
      ...env,
      CLOUDSVC_DATA_DIR: dataDir,
      PORT: String(ports.api),
      TEMPORAL_PORT: String(ports.temporal),
      TEMPORAL_UI_PORT: String(ports.ui),
      EMBEDDED_DB_PORT: String(ports.db),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so the test can signal the group as a terminal's Ctrl-C does.
    detached: true,
  });
  child.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  const text = await eventually(
    () => {
      const all = output.join('');
      if (child.exitCode !== null) throw new Error(`npm start exited: ${all}`);
      return all.includes('Ctrl-C stops everything') ? all : undefined;
    },
    150_000,
    'npm start',
  );
  const field = (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(text)?.[1] ?? '';
  return {
    child,
    output,
    apiUrl: field('API base URL'),
    clientKey: field('Client key'),
    applicationKey: field('Application key'),
  };
}

/** Ctrl-C; resolves with what the stack printed once it is gone (npm itself exits at once on SIGINT). */
async function stop(started: Started): Promise<string> {
  const exited = new Promise<void>((r) => started.child.once('close', () => r()));
  process.kill(-started.child.pid!, 'SIGINT');
  await exited;
  return started.output.join('');
}

describe('npm start', () => {
  it('starts the stack, serves the printed keys, stops everything on Ctrl-C and keeps its data', {
    timeout: 300_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cloudsvc-start-'));
    const ports = {
      api: await freePort(),
      temporal: await freePort(),
      ui: await freePort(),
      db: await freePort(),
    };

    const first = await npmStart(dataDir, ports);
    expect(first.output.join('')).toContain(`Temporal UI       http://127.0.0.1:${ports.ui}`);
    const list = await fetch(`${first.apiUrl}/api/client/cloud`, {
      headers: { Authorization: `Bearer ${first.clientKey}` },
    });
    expect(list.status).toBe(200);
    const demo = (await json(list)).data[0].attributes;
    expect(demo.name).toBe('demo-instance');
    const hypervisors = await json(
      await fetch(`${first.apiUrl}/api/application/cloudsvc/hypervisors`, {
        headers: { Authorization: `Bearer ${first.applicationKey}` },
      }),
    );
    expect(hypervisors.data[0].attributes).toMatchObject({ name: 'demo-hv-1', status: 'online' });
    // The demo agent provisions the instance through the real task path.
    await eventually(
      async () => {
        const res = await fetch(`${first.apiUrl}/api/client/cloud/${demo.uuid}`, {
          headers: { Authorization: `Bearer ${first.clientKey}` },
        });
        return (await json(res)).attributes.status === 'running';
      },
      60_000,
      'the demo instance to run',
    );

    expect(await stop(first)).toContain('stopped.');
    for (const port of Object.values(ports)) expect(await isPortOpen(port)).toBe(false);

    const second = await npmStart(dataDir, ports);
    expect(second.clientKey).toBe(first.clientKey);
    const again = await json(
      await fetch(`${second.apiUrl}/api/client/cloud`, {
        headers: { Authorization: `Bearer ${second.clientKey}` },
      }),
    );
    expect(again.data.map((d: { attributes: { uuid: string } }) => d.attributes.uuid)).toEqual([demo.uuid]);
    expect(await stop(second)).toContain('stopped.');
    for (const port of Object.values(ports)) expect(await isPortOpen(port)).toBe(false);
  });
});
