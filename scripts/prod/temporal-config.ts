/** Where PostgreSQL is, as the Temporal server and its SQL tool take it. */
export interface PostgresServer {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
}

/**
 * The Temporal server's static configuration for the production shape: persistence on PostgreSQL
 * (Temporal's `postgres12` plugin), its four services on loopback in one process, one cluster, no
 * archival. The dynamic configuration is the compose file's (docker/temporal-dynamic-config.yaml).
 */
export function temporalServerConfig(options: {
  readonly postgres: PostgresServer;
  readonly frontendPort: number;
  readonly dynamicConfigFile: string;
}): string {
  const { postgres, frontendPort } = options;
  // The other services' ports follow the frontend's, as Temporal's own layouts do (7233: history
  // 7234, matching 7235, worker 7239, HTTP 7243), each membership port 20 above its service's: all
  // within the stack's ports (platform/stack-ports.ts), none shared with a stack on another base.
  const port = (offset: number) => frontendPort + offset;
  const membership = (grpc: number) => grpc + 20;
  // Temporal records membership ports in a smallint column: one above 32767 stops the server.
  if (membership(port(6)) > 32_767) {
    throw new Error(
      `the Temporal server on ${frontendPort} puts its membership ports above 32767 (Temporal keeps them ` +
        'as a smallint): start the production shape with a lower PORT',
    );
  }
  const datastore = (database: string, connections: number) => `
      sql:
        pluginName: postgres12
        databaseName: ${database}
        connectAddr: "${postgres.host}:${postgres.port}"
        connectProtocol: tcp
        user: ${JSON.stringify(postgres.user)}
        password: ${JSON.stringify(postgres.password)}
        maxConns: ${connections}
        maxIdleConns: ${connections}
        maxConnLifetime: 1h`;
  const service = (grpc: number, http?: number) => `
    rpc:
      grpcPort: ${grpc}
      membershipPort: ${membership(grpc)}
      bindOnLocalHost: true${http ? `\n      httpPort: ${http}` : ''}`;
  return `# Written by npm run stack:prod (scripts/prod/temporal-config.ts) at each start.
log:
  stdout: true
  level: warn
persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  numHistoryShards: 4
  datastores:
    postgres-default:${datastore('temporal', 20)}
    postgres-visibility:${datastore('temporal_visibility', 4)}
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: 127.0.0.1
services:
  frontend:${service(port(0), port(10))}
  history:${service(port(1))}
  matching:${service(port(2))}
  worker:${service(port(6))}
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: "127.0.0.1:${port(0)}"
      httpAddress: "127.0.0.1:${port(10)}"
dcRedirectionPolicy:
  policy: noop
archival:
  history:
    state: disabled
  visibility:
    state: disabled
namespaceDefaults:
  archival:
    history:
      state: disabled
    visibility:
      state: disabled
dynamicConfigClient:
  filepath: ${JSON.stringify(options.dynamicConfigFile)}
  pollInterval: 10s
`;
}
