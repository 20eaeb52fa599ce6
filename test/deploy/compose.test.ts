import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadGatewayConfig } from '../../console-gateway/config.js';
import { SEARCH_ATTRIBUTE_TYPE, SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { loadConfig } from '../../platform/config.js';
import { COMPOSE_HAPROXY, haproxyConfig } from '../../scripts/prod/proxy.js';
import { composeProject } from '../support/compose-file.js';

/**
 * No Docker engine runs here, so the production shape (with .env.example's settings, as the
 * containers get it) is checked against the code it runs:
 * each service's command names a file the build produces, its environment is configuration the
 * code reads and accepts, and services start in dependency order.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const compose = composeProject();
const dockerfile = readFileSync(`${root}Dockerfile`, 'utf8');
const ours = Object.entries(compose.services).filter(([, s]) => s.build === '.');

describe('docker-compose.yml', () => {
  it('has the production shape: PostgreSQL, Temporal on it, its UI, our migrate, api and worker behind a proxy, and the console gateway', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'api',
      'console-gateway',
      'console-gateway-credential',
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
    expect(ours.map(([name]) => name).sort()).toEqual([
      'api',
      'console-gateway',
      'console-gateway-credential',
      'migrate',
      'worker',
    ]);
    for (const [name, service] of ours.filter(([name]) => name !== 'console-gateway-credential')) {
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
          ![
            'node_modules',
            'dist',
            'test',
            'test-results',
            'docker',
            'bin',
            'lint',
            'docs',
            'tools',
          ].includes(e.name),
      )
      .map((e) => e.name);
    expect(sources.filter((f) => !build.include.includes(f))).toEqual([]);
  });

  it('gives our services configuration the code accepts', () => {
    for (const [name, service] of ours.filter(([name]) => name !== 'console-gateway')) {
      expect(() => loadConfig(service.environment as NodeJS.ProcessEnv), name).not.toThrow();
    }
    // The gateway's credential is the file its set-up service writes (test/deploy/compose-credential.test.ts).
    const { GATEWAY_CREDENTIAL_FILE, ...gateway } = compose.services['console-gateway']?.environment ?? {};
    expect(GATEWAY_CREDENTIAL_FILE).toBe('/var/lib/cloudsvc/console-gateway/credential');
    const config = loadGatewayConfig({ ...gateway, GATEWAY_CREDENTIAL: 'csw_placeholder' });
    // It speaks to the panel through the proxy, as stack:prod's gateway does.
    expect(config.GATEWAY_PANEL_URL).toBe('http://proxy:8080');
    expect(config.GATEWAY_HOST).toBe('0.0.0.0');
  });

  it('hands the console gateway the credential its set-up issued, read-only, and the API its address', () => {
    const gateway = compose.services['console-gateway']!;
    expect(gateway.depends_on).toEqual({
      'console-gateway-credential': { condition: 'service_completed_successfully' },
      proxy: { condition: 'service_started' },
    });
    const setUp = compose.services['console-gateway-credential']!;
    expect(setUp.volumes).toEqual(['console-gateway-credential:/var/lib/cloudsvc/console-gateway']);
    expect(gateway.volumes).toEqual(['console-gateway-credential:/var/lib/cloudsvc/console-gateway:ro']);
    expect(dockerfile).toContain('install -d -o node -g node -m 700 /var/lib/cloudsvc/console-gateway');
    expect(compose.services.api?.environment?.CONSOLE_GATEWAY_URL).toBe('ws://localhost:8081/connect');
    expect(gateway.environment?.GATEWAY_PORT).toBe('8081');
    expect(gateway.ports).toEqual(['8081:8081']);
  });

  it('restarts every long-running service, as stack:prod supervises its parts', () => {
    const oneShot = ['migrate', 'temporal-setup', 'console-gateway-credential'];
    for (const [name, service] of Object.entries(compose.services))
      expect(service.restart, name).toBe(oneShot.includes(name) ? undefined : 'unless-stopped');
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

  it('publishes only the API and the console gateway beyond this machine: the Temporal UI and PostgreSQL on loopback', () => {
    const published = Object.entries(compose.services).flatMap(([name, s]) =>
      (s.ports ?? []).map((port) => ({ name, port })),
    );
    expect(published.map((p) => p.name).sort()).toEqual([
      'console-gateway',
      'postgres',
      'proxy',
      'temporal-ui',
    ]);
    expect(compose.services.proxy?.ports).toEqual(['8080:8080']);
    for (const { name, port } of published.filter((p) => !['proxy', 'console-gateway'].includes(p.name))) {
      // host_ip:host_port:container_port; without a host address Docker binds every interface.
      expect(port, name).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
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
