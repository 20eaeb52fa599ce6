import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The bridge in the namespace that stands for the location's public network. */
export const PUBLIC_BRIDGE = 'public';

/** A tap's bytes as the host counts them: `rx` came from the guest, `tx` went to it. */
export interface TapCounters {
  readonly rx: number;
  readonly tx: number;
}

/**
 * The name of a guest's tap (at most 15 characters, as Linux allows): the same for a guest at
 * every boot, different for each agent (`owner`, its state directory), so two agents on one host
 * never make the same tap, not even for one guest moving live between them.
 */
export function tapName(owner: string, instanceId: string, nic: number): string {
  return `cs${createHash('sha256').update(`${owner}\n${instanceId}\n${nic}`).digest('hex').slice(0, 12)}`;
}

/**
 * The host side of the bridged network: a network namespace (AGENT_QEMU_NETNS) holding a Linux
 * bridge for the public network, the guests' taps on it, and the firewall (guest-firewall.ts). The
 * namespace plays the provider's router: it carries each pool's gateway on its bridge, so it
 * reaches every guest and every guest reaches it, and no frame leaves it for the host's own
 * network. QEMU opens a guest's tap where it runs, and the agent moves it into the namespace.
 */
export class HostNetwork {
  constructor(readonly namespace: string) {}

  /** Runs `ip` inside the namespace. */
  ip(args: string[]): Promise<{ stdout: string }> {
    return run('ip', ['-n', this.namespace, ...args]);
  }

  /** Runs `nft -f -` inside the namespace: the script is one transaction, applied whole or not at all. */
  async nft(script: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const child = execFile(
        'ip',
        ['netns', 'exec', this.namespace, 'nft', '-f', '-'],
        (error, _out, stderr) =>
          error ? reject(new Error(`nft: ${stderr.trim() || error.message}`)) : resolve(),
      );
      child.stdin!.end(script);
    });
  }

  /** The namespace and its public bridge, made if they are not there (a host just booted). */
  async ensure(): Promise<void> {
    if (!existsSync(`/run/netns/${this.namespace}`))
      await run('ip', ['netns', 'add', this.namespace]).catch((error: Error) => {
        // Another agent of this host may have made it meanwhile.
        if (!existsSync(`/run/netns/${this.namespace}`)) throw error;
      });
    await this.ip(['link', 'set', 'lo', 'up']);
    await this.ip(['link', 'add', PUBLIC_BRIDGE, 'type', 'bridge']).catch(() => undefined);
    await this.ip(['link', 'set', PUBLIC_BRIDGE, 'up']);
  }

  /**
   * Takes a tap QEMU has just opened (on the host) into the namespace, onto `bridge` (made if it
   * is not there: a private network's first guest here), up.
   */
  async plug(tap: string, bridge = PUBLIC_BRIDGE): Promise<void> {
    await run('ip', ['link', 'set', tap, 'netns', this.namespace]).catch(async (error: Error) => {
      // Already moved (a repeated boot step): it is in the namespace now.
      await this.ip(['link', 'show', tap]).catch(() => {
        throw error;
      });
    });
    // Made again where another agent of this namespace dropped it empty just before.
    for (let attempt = 1; ; attempt++) {
      await this.ip(['link', 'add', bridge, 'type', 'bridge']).catch(() => undefined);
      await this.ip(['link', 'set', bridge, 'up']).catch(() => undefined);
      const plugged = await this.ip(['link', 'set', tap, 'master', bridge, 'up']).then(
        () => undefined,
        (error: Error) => error,
      );
      if (!plugged) return;
      if (attempt === 3) throw plugged;
    }
  }

  /** Deletes the bridges named `prefix…` that hold no port (a private network no guest here is on). */
  async dropEmptyBridges(prefix: string): Promise<void> {
    const { stdout } = await this.ip(['-j', '-d', 'link', 'show']);
    const links = JSON.parse(stdout) as {
      ifname: string;
      master?: string;
      linkinfo?: { info_kind?: string };
    }[];
    const used = new Set(links.map((l) => l.master).filter((m) => m !== undefined));
    for (const link of links)
      if (link.linkinfo?.info_kind === 'bridge' && link.ifname.startsWith(prefix) && !used.has(link.ifname))
        await this.ip(['link', 'del', link.ifname]).catch(() => undefined);
  }

  /** Each pool's gateway on the public bridge, so the namespace routes to the guests' addresses. */
  async carryGateways(gateways: readonly { gateway: string; prefix: number }[]): Promise<void> {
    for (const { gateway, prefix } of gateways) {
      const family = gateway.includes(':') ? ['-6'] : ['-4'];
      const extra = gateway.includes(':') ? ['nodad'] : [];
      await this.ip([...family, 'addr', 'replace', `${gateway}/${prefix}`, 'dev', PUBLIC_BRIDGE, ...extra]);
    }
  }

  /** The byte counters of every tap in the namespace, by name. */
  async counters(): Promise<Map<string, TapCounters>> {
    const { stdout } = await this.ip(['-j', '-s', 'link', 'show']);
    const links = JSON.parse(stdout) as {
      ifname: string;
      stats64?: { rx: { bytes: number }; tx: { bytes: number } };
    }[];
    return new Map(
      links
        .filter((l) => l.stats64)
        .map((l) => [l.ifname, { rx: l.stats64!.rx.bytes, tx: l.stats64!.tx.bytes }] as const),
    );
  }
}
