// The directions imports may take between the product's folders, checked by `npm run check`
// (`depcruise`). Biome holds the rules about names (api/ and cli/ read repositories only, by
// function name; workflows load only what Temporal's sandbox allows; SQL only in db/); this file
// holds the rules about folders. Type-only imports count: a circle of types is still a circle.
const PRODUCT =
  '^(activities|agent|api|cli|clients|console-gateway|db|domain|http|platform|scripts|server|services|web|wire|worker|workflows)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle in the product code: each folder depends on the ones below it.',
      from: { path: PRODUCT },
      to: { circular: true },
    },
    {
      name: 'activities-not-services',
      severity: 'error',
      comment:
        'activities/ never import services/ (services start workflows, which call activities). ' +
        'What both need lives below both: domain/, or a transactional record in db/records/.',
      from: { path: '^activities/' },
      to: { path: '^services/' },
    },
    {
      name: 'domain-only-domain',
      severity: 'error',
      comment: 'domain/ holds the pure rules: it imports nothing of ours but domain/.',
      from: { path: '^domain/' },
      to: { path: PRODUCT, pathNot: '^domain/' },
    },
    {
      name: 'agent-is-a-separate-process',
      severity: 'error',
      comment:
        'agent/ speaks the Agent API and never the panel internals: it imports only its own ' +
        'files, domain/, platform/logger.ts and tracing.ts, and the client generated from the Agent API document.',
      from: { path: '^agent/' },
      to: {
        path: PRODUCT,
        pathNot: '^(agent/|domain/|platform/(logger|tracing)\\.ts$|clients/(agent|answered)\\.ts$)',
      },
    },
    {
      name: 'agent-packages',
      severity: 'error',
      comment:
        'The agent is small to install: node built-ins, zod, ws (the console relay; Node 20 has no WebSocket client, and ws depends on nothing) openapi-fetch (the typed Agent API client, 17 kB) and OpenTelemetry (its traces, off unless TRACING_ENABLED) are all it uses.',
      from: { path: '^agent/' },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg'],
        pathNot: 'node_modules/(zod|ws|openapi-fetch|@opentelemetry/[^/]+)/',
      },
    },
    {
      name: 'qemu-rooms-wired-by-the-entry',
      severity: 'error',
      comment:
        'The QEMU driver is in rooms (docs/qemu.md). guests/, disks/, artifacts/, password/ and network/ ' +
        'are what a guest is made of and may lean on each other; migration/, storage-moves/ and console/ ' +
        'stand on them and are reached from driver.ts alone, which wires the rooms together: no other ' +
        'room imports them ($1 is the importing file’s own room, which may).',
      from: { path: '^agent/drivers/qemu/([^/]+)/' },
      to: {
        path: '^agent/drivers/qemu/(migration|storage-moves|console)/',
        pathNot: '^agent/drivers/qemu/$1/',
      },
    },
    {
      name: 'qemu-driver-from-outside',
      severity: 'error',
      comment:
        'Outside its folder the product reaches the QEMU driver through its root (driver.ts, availability.ts) ' +
        'and the few settings and probes the agent’s configuration and start-up name; the rest of a room ' +
        'is the room’s own. The tests, which read the hypervisor’s state, are not held to it.',
      from: { path: PRODUCT, pathNot: '^agent/drivers/qemu/' },
      to: {
        path: '^agent/drivers/qemu/',
        pathNot:
          '^agent/drivers/qemu/([^/]+|guests/(accelerator|guest-process)|artifacts/image-store|network/guest-network)\\.ts$',
      },
    },
    {
      name: 'api-cli-no-records',
      severity: 'error',
      comment:
        'api/ and cli/ (and what they stand on: server/, http/, wire/) write through one service call: ' +
        'db/records/ is for services and activities.',
      from: { path: '^(api|cli|server|http|wire)/' },
      to: { path: '^db/records/' },
    },
    {
      name: 'table-types-through-the-schema',
      severity: 'error',
      comment:
        'The table types in the rooms of db/schema/ are read through db/schema.ts, the one entry point ' +
        '(the rooms may share db/schema/columns.ts).',
      from: { pathNot: '^db/schema(\\.ts$|/)' },
      to: { path: '^db/schema/' },
    },
    {
      name: 'pages-call-services',
      severity: 'error',
      comment:
        'web/ (the admin pages) reads and writes through services/ only, and renders the serializers ' +
        'of wire/: no repository, no record, no workflow of its own.',
      from: { path: '^web/' },
      to: { path: '^(db|workflows|activities|worker)/' },
    },
    {
      name: 'api-is-a-server',
      severity: 'error',
      comment:
        'The API is a server, not a library: cli/ and web/ import neither api/ nor the process that ' +
        'mounts it (server/). What they share with it lives below: wire/ (serializers, wire schemas, ' +
        'base paths), http/ (the request plumbing the pages share), services/ (behaviour).',
      from: { path: '^(cli|web)/' },
      to: { path: '^(api|server)/' },
    },
    {
      name: 'api-imports-no-other-face',
      severity: 'error',
      comment:
        'api/ holds the APIs and imports neither the pages (web/), the CLI (cli/) nor the process ' +
        '(server/): server/app.ts mounts the APIs and the pages side by side.',
      from: { path: '^api/' },
      to: { path: '^(web|cli|server)/' },
    },
    {
      name: 'wire-below-the-faces',
      severity: 'error',
      comment:
        'wire/ (what crosses the wire: serializers, envelope and request schemas, base paths) sits below ' +
        'every face of the plane: it imports no api/, web/, cli/, server/ or http/.',
      from: { path: '^wire/' },
      to: { path: '^(api|web|cli|server|http)/' },
    },
    {
      name: 'http-below-the-faces',
      severity: 'error',
      comment:
        'http/ (the request plumbing the APIs and the pages share) imports no api/, web/, cli/ or server/.',
      from: { path: '^http/' },
      to: { path: '^(api|web|cli|server)/' },
    },
    {
      name: 'no-test-code-in-product',
      severity: 'error',
      from: { path: PRODUCT },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|\\.data)/' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
