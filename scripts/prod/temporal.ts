import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SEARCH_ATTRIBUTE_TYPE, SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { waitForPort } from '../../platform/ports.js';
import { temporalCli } from '../../platform/temporal-dev-server.js';
import type { Children } from '../start/children.js';
import { root, say } from '../start/settings.js';
import { type PostgresServer, temporalServerConfig } from './temporal-config.js';

const run = promisify(execFile);

/** The folder of the built `temporal-server` and `temporal-sql-tool` (scripts/prod/temporal-server.sh). */
async function binaries(): Promise<string> {
  const { stdout } = await run('bash', [join(root, 'scripts/prod/temporal-server.sh')], {
    maxBuffer: 1 << 20,
    timeout: 60 * 60 * 1000,
  });
  return stdout.trim().split('\n').pop()!;
}

/**
 * Creates the database and brings its schema up to the server's version with Temporal's own tool,
 * from the schema files it ships; a database already set up is left as it is (the tool is
 * idempotent, as Temporal's own auto-setup runs it at every start).
 */
async function setUpSchema(bin: string, postgres: PostgresServer, database: string, schema: string) {
  const sqlTool = (...args: string[]) =>
    run(join(bin, 'temporal-sql-tool'), [
      '--plugin',
      'postgres12',
      '--ep',
      postgres.host,
      '-p',
      String(postgres.port),
      '-u',
      postgres.user,
      '--pw',
      postgres.password,
      '--db',
      database,
      ...args,
    ]);
  await sqlTool('create-database').catch((error: { stderr?: string }) => {
    if (!/already exists/.test(error.stderr ?? '')) throw error;
  });
  await sqlTool('setup-schema', '-v', '0.0');
  await sqlTool('update-schema', '--schema-name', schema);
}

/**
 * The Temporal server of the production shape: its four services in one process, persisting to
 * PostgreSQL (`temporal` and `temporal_visibility`), with the dynamic configuration the compose
 * file mounts; then the namespace and cloudsvc's search attributes, made if missing. It is one of
 * the stack's children (`temporal`, logging to logs/temporal.log): started again if it dies.
 * Resolves with its frontend's address.
 */
export async function startTemporalServer(options: {
  readonly postgres: PostgresServer;
  readonly frontendPort: number;
  readonly folder: string;
  readonly children: Children;
}): Promise<string> {
  const bin = await binaries();
  say('setting up the Temporal schema on PostgreSQL…');
  await setUpSchema(bin, options.postgres, 'temporal', 'postgresql/v12/temporal');
  await setUpSchema(bin, options.postgres, 'temporal_visibility', 'postgresql/v12/visibility');

  const configFolder = join(options.folder, 'config');
  mkdirSync(configFolder, { recursive: true });
  writeFileSync(
    join(configFolder, 'production.yaml'),
    temporalServerConfig({
      postgres: options.postgres,
      frontendPort: options.frontendPort,
      dynamicConfigFile: join(root, 'docker/temporal-dynamic-config.yaml'),
    }),
  );
  const child = options.children.run('temporal', join(bin, 'temporal-server'), [
    '--root',
    options.folder,
    '--config',
    'config',
    '--env',
    'production',
    '--allow-no-auth',
    'start',
  ]);
  const early = new Promise<never>((_, failed) =>
    child.once('exit', (code, signal) =>
      failed(new Error(`the Temporal server exited early (${signal ?? code}); see logs/temporal.log`)),
    ),
  );
  early.catch(() => {});
  await Promise.race([waitForPort(options.frontendPort, 120_000, 'the Temporal server'), early]);

  const address = `127.0.0.1:${options.frontendPort}`;
  await registerNamespace(address);
  return address;
}

/** The `default` namespace and the search attributes every cloudsvc workflow carries, if missing. */
async function registerNamespace(address: string): Promise<void> {
  const cli = await temporalCli();
  const temporal = (...args: string[]) => run(cli, [...args, '--address', address]);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await temporal('operator', 'namespace', 'create', '--namespace', 'default', '--retention', '72h');
      break;
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? '';
      if (/already (exists|registered)/i.test(stderr)) break;
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
  for (const name of Object.values(SEARCH_ATTRIBUTES)) {
    await temporal(
      'operator',
      'search-attribute',
      'create',
      '--namespace',
      'default',
      '--name',
      name,
      '--type',
      SEARCH_ATTRIBUTE_TYPE,
    ).catch((error: { stderr?: string }) => {
      if (!/already exists/i.test(error.stderr ?? '')) throw error;
    });
  }
}
