import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SEARCH_ATTRIBUTE_TYPE, SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { loadConfig } from '../../platform/config.js';
import { COMPOSE_HAPROXY, haproxyConfig } from '../../scripts/prod/proxy.js';

/**
 * No Docker engine runs here, so the production shape is checked against the code it runs:
 * each service's command names a file the build produces, its environment is configuration the
 * code reads and accepts, and services start in dependency order.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const compose = parse(readFileSync(`${root}docker-compose.yml`, 'utf8'), { merge: true }) as {
  services: Record<
    string,
    {
      image?: string;
      build?: string;
      command?: string[];
      environment?: Record<string, string>;
      depends_on?: Record<string, { condition: string }> | string[];
      volumes?: string[];
      ports?: string[];
      healthcheck?: { test?: string[] };
      deploy?: { replicas?: number };
    }
  >;
};
const dockerfile = readFileSync(`${root}Dockerfile`, 'utf8');
const ours = Object.entries(compose.services).filter(([, s]) => s.build === '.');

describe('docker-compose.yml', () => {
  it('has the production shape: PostgreSQL, Temporal on it, its UI, and our migrate, api and worker behind a proxy', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'api',
      'migrate',
      'postgres',
      'proxy',
      'temporal',
      'temporal-setup',
      'temporal-ui',
      'worker',
    ]);
    expect(compose.services.temporal?.environment?.DB).toBe('postgres12');
    expect(compose.services.temporal?.environment?.POSTGRES_SEEDS).toBe('postgres');
  });

  it('runs, in each of our services, a file the Dockerfile build produces from a source that exists', () => {
    expect(ours.map(([name]) => name).sort()).toEqual(['api', 'migrate', 'worker']);
    for (const [name, service] of ours) {
      const [node, entry] = service.command ?? [];
      expect(node, name).toBe('node');
      expect(entry, name).toMatch(/^dist\/.+\.js$/);
      const source = entry!.replace(/^dist\//, '').replace(/\.js$/, '.ts');
      expect(existsSync(`${root}${source}`), `${name}: ${source}`).toBe(true);
      const folder = source.split('/')[0]!;
      expect(dockerfile, `Dockerfile copies ${folder}`).toContain(`COPY ${folder} ${folder}`);
    }
  });

  it('copies every folder the build compiles into the image', () => {
    const build = JSON.parse(readFileSync(`${root}tsconfig.build.json`, 'utf8')) as { include: string[] };
    for (const folder of build.include)
      expect(dockerfile, `Dockerfile copies ${folder}`).toContain(`COPY ${folder} ${folder}`);
    // A top-level folder of source that the build would miss: every one must be in the include list.
    const sources = readdirSync(root, { withFileTypes: true })
      .filter(
        (e) =>
          e.isDirectory() &&
          !e.name.startsWith('.') &&
          !['node_modules', 'dist', 'test', 'test-results', 'docker', 'bin', 'lint', 'docs'].includes(e.name),
      )
      .map((e) => e.name);
    expect(sources.filter((f) => !build.include.includes(f))).toEqual([]);
  });

  it('gives our services configuration the code accepts', () => {
    for (const [name, service] of ours) {
      expect(() => loadConfig(service.environment as NodeJS.ProcessEnv), name).not.toThrow();
    }
  });

  it('starts api and worker only after migrations succeeded and Temporal is set up', () => {
    for (const name of ['api', 'worker']) {
      expect(compose.services[name]?.depends_on).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        'temporal-setup': { condition: 'service_completed_successfully' },
      });
    }
    expect(compose.services['temporal-setup']?.depends_on).toEqual({
      temporal: { condition: 'service_healthy' },
    });
  });

  it('probes the api and the worker on /readyz, at the port each listens on', () => {
    for (const [name, portVariable] of [
      ['api', 'PORT'],
      ['worker', 'WORKER_HTTP_PORT'],
    ] as const) {
      const service = compose.services[name]!;
      const port = loadConfig(service.environment as NodeJS.ProcessEnv)[portVariable];
      const probe = (service.healthcheck?.test ?? []).join(' ');
      expect(probe, name).toContain(`http://127.0.0.1:${port}/readyz`);
    }
  });

  it("registers every search attribute the workflows carry in Temporal's set-up", () => {
    const script = (compose.services['temporal-setup']?.command ?? []).join(' ');
    for (const name of Object.values(SEARCH_ATTRIBUTES)) expect(script).toContain(name);
    expect(script).toContain(`--type ${SEARCH_ATTRIBUTE_TYPE}`);
  });

  it('publishes only the API beyond this machine: the Temporal UI and PostgreSQL on loopback', () => {
    const published = Object.entries(compose.services).flatMap(([name, s]) =>
      (s.ports ?? []).map((port) => ({ name, port })),
    );
    expect(published.map((p) => p.name).sort()).toEqual(['postgres', 'proxy', 'temporal-ui']);
    expect(compose.services.proxy?.ports).toEqual(['8080:8080']);
    for (const { name, port } of published.filter((p) => p.name !== 'proxy')) {
      // host_ip:host_port:container_port (the host port may be ${VAR:-default}); without a host
      // address Docker binds every interface.
      expect(port, name).toMatch(/^127\.0\.0\.1:(\d+|\$\{[A-Z_]+:-\d+\}):\d+$/);
    }
    expect(compose.services['temporal-ui']?.ports).toEqual(['127.0.0.1:8233:8080']);
  });

  it('runs two APIs and two workers, the APIs behind HAProxy configured as npm run stack:prod configures it', () => {
    expect(compose.services.api?.deploy?.replicas).toBe(2);
    expect(compose.services.worker?.deploy?.replicas).toBe(2);
    const [file, mountedAt] = compose.services.proxy?.volumes?.[0]?.split(':') ?? [];
    expect(mountedAt).toBe('/usr/local/etc/haproxy/haproxy.cfg');
    expect(readFileSync(`${root}${file!.replace(/^\.\//, '')}`, 'utf8')).toBe(haproxyConfig(COMPOSE_HAPROXY));
    // The proxy appends the caller to X-Forwarded-For: the APIs trust that one hop.
    expect(compose.services.api?.environment?.TRUST_PROXY_HOPS).toBe('1');
    expect(compose.services.proxy?.depends_on).toEqual({ api: { condition: 'service_healthy' } });
  });

  it('mounts the Temporal dynamic config that exists in the repository', () => {
    const mount = compose.services.temporal?.volumes?.[0]?.split(':')[0] ?? '';
    expect(existsSync(`${root}${mount.replace(/^\.\//, '')}`)).toBe(true);
    const settings = parse(readFileSync(`${root}docker/temporal-dynamic-config.yaml`, 'utf8'));
    expect(settings['history.transferProcessorMaxPollRPS'][0].value).toBe(1000);
  });
});

describe('Dockerfile', () => {
  it('builds on a glibc Node 20 image and copies every source folder the build needs', () => {
    expect(dockerfile).toMatch(/^FROM node:20-bookworm-slim AS build$/m);
    const build = JSON.parse(readFileSync(`${root}tsconfig.build.json`, 'utf8')) as { include: string[] };
    for (const folder of build.include) expect(dockerfile).toContain(`COPY ${folder} ${folder}`);
  });
});
