import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  configuredImage,
  DEBIAN_IMAGE,
  FAST_IMAGE,
  qemuGuestsMissing,
} from '../../agent/drivers/qemu/availability.js';
import type { Database } from '../../db/database.js';
import { findActiveCredential } from '../../db/repositories/accounts/active-credentials.js';
import { createCredential } from '../../db/repositories/accounts/credentials.js';
import { findHypervisor } from '../../db/repositories/hypervisors/hypervisors.js';
import { hashToken } from '../../domain/credentials.js';
import type { Children } from './children.js';
import { data, env, logs, root, say } from './settings.js';

/**
 * Whether the demo can run real guests: QEMU installed and the busybox image built (built here,
 * once, when missing). Otherwise why not, and the demo falls back to the simulated driver. The
 * Debian image takes minutes and root: it is only said how to build it.
 */
export function qemuUnavailable(): string | undefined {
  const missing = qemuGuestsMissing(env);
  if (missing && !missing.startsWith(`no ${FAST_IMAGE} image`)) return missing;
  if (missing) {
    say(`building the ${FAST_IMAGE} image (scripts/images/busybox.sh, once)…`);
    const built = spawnSync('bash', [join(root, 'scripts/images/busybox.sh')], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (built.status !== 0) return `the ${FAST_IMAGE} image could not be built (scripts/images/busybox.sh)`;
  }
  if (!configuredImage(DEBIAN_IMAGE, env))
    say(`ordering ${DEBIAN_IMAGE} needs its image: bash scripts/images/debian-12.sh (a few minutes, once)`);
  return undefined;
}

export interface DemoAgents {
  readonly db: Database;
  readonly apiUrl: string;
  readonly realGuests: boolean;
  readonly accelerator: string | undefined;
  readonly enrollmentTtlMs: number;
  readonly children: Children;
}

/** The name of the agent of the demo's `n`th hypervisor (from 1): its log and state folder. */
export const agentName = (n: number) => (n === 1 ? 'agent' : `agent-${n}`);

/**
 * A demo hypervisor's agent, enrolled through the Agent API with a one-time token unless its saved
 * credential is still good; resolves once the hypervisor is online.
 */
export async function startAgent(demo: DemoAgents, name: string, hypervisorId: string): Promise<void> {
  const { db, apiUrl, realGuests, accelerator } = demo;
  const agentDir = join(data, name);
  const agentEnv: Record<string, string> = {
    AGENT_PANEL_URL: apiUrl,
    AGENT_STATE_DIR: agentDir,
    AGENT_DRIVER: realGuests ? 'qemu' : 'simulated',
    ...(accelerator ? { AGENT_QEMU_ACCEL: accelerator } : {}),
    AGENT_SIM_LATENCY_MS: env.AGENT_SIM_LATENCY_MS ?? '{"instance.create":1500,"default":400}',
  };
  const credentialFile = join(agentDir, 'credential.json');
  const saved = existsSync(credentialFile)
    ? (JSON.parse(readFileSync(credentialFile, 'utf8')) as { credential: string })
    : undefined;
  if (!saved || !(await findActiveCredential(db, hashToken(saved.credential)))) {
    rmSync(credentialFile, { force: true });
    const token = await createCredential(db, {
      type: 'enrollment',
      hypervisorId,
      expiresAt: new Date(Date.now() + demo.enrollmentTtlMs),
    });
    agentEnv.AGENT_ENROLLMENT_TOKEN = token.token;
  }
  demo.children.launch(name, 'agent/main.ts', agentEnv);
  const deadline = Date.now() + 60_000;
  while ((await findHypervisor(db, hypervisorId))?.status !== 'online') {
    if (Date.now() > deadline)
      throw new Error(`the demo agent did not come online; see ${join(logs, `${name}.log`)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
