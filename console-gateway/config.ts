import { readFileSync } from 'node:fs';
import { z } from 'zod';

const ms = z.coerce.number().int().min(10);

/** The console gateway's configuration (it may run apart from the panel, nearer the browsers). */
const schema = z.object({
  /** The panel whose internal API it speaks. */
  GATEWAY_PANEL_URL: z.string().url(),
  /**
   * Its console-gateway credential (`csw_…`, `npm run cli -- keys:create --type console-gateway`),
   * or the contents of GATEWAY_CREDENTIAL_FILE.
   */
  GATEWAY_CREDENTIAL: z.string().startsWith('csw_'),
  GATEWAY_HOST: z.string().default('127.0.0.1'),
  GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  /** Where agents reach it (`ws://…/relay`); by default its own address. */
  GATEWAY_RELAY_URL: z.string().url().optional(),
  GATEWAY_HEARTBEAT_MS: ms.default(10_000),
  /** How often it reads the endings feed: a revoked session is cut within this and one request. */
  GATEWAY_FEED_MS: ms.default(1_000),
  /** How long a browser waits for the instance's agent to bring the console. */
  GATEWAY_STREAM_WAIT_MS: ms.default(20_000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type GatewayConfig = z.infer<typeof schema>;

type Environment = NodeJS.ProcessEnv | Record<string, string | undefined>;

/**
 * GATEWAY_CREDENTIAL_FILE names a file holding the credential instead, as container secrets and the
 * compose file's set-up hand it over: a credential in the environment shows in `docker inspect`.
 */
function withCredentialFromFile(env: Environment): Environment {
  const file = env.GATEWAY_CREDENTIAL_FILE;
  if (file === undefined) return env;
  if (env.GATEWAY_CREDENTIAL !== undefined)
    throw new Error(
      'invalid gateway configuration: set GATEWAY_CREDENTIAL or GATEWAY_CREDENTIAL_FILE, not both',
    );
  let credential: string;
  try {
    credential = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new Error(
      `invalid gateway configuration: GATEWAY_CREDENTIAL_FILE ${file} cannot be read (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  return { ...env, GATEWAY_CREDENTIAL: credential };
}

export function loadGatewayConfig(env: Environment = process.env) {
  const parsed = schema.safeParse(withCredentialFromFile(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`invalid gateway configuration:\n${problems}`);
  }
  return parsed.data;
}
