import type { AgentTaskParams } from '../../../../domain/agent-tasks.js';

type FirewallSet = Pick<AgentTaskParams<'firewall.apply'>, 'enabled' | 'rules'>;
type Rule = FirewallSet['rules'][number];

const TABLE = 'bridge cloudsvc';

/**
 * The table every guest's firewall hangs from: frames leaving the bridge for a tap go to that
 * tap's inbound chain, frames coming in from a tap to its outbound chain (a verdict map by name,
 * so a guest's chains are found in one lookup however many guests there are). Idempotent.
 */
export const FIREWALL_TABLE = `${[
  `add table ${TABLE}`,
  `add map ${TABLE} inbound { type ifname : verdict; }`,
  `add map ${TABLE} outbound { type ifname : verdict; }`,
  `add chain ${TABLE} to-guests { type filter hook postrouting priority 0; policy accept; }`,
  `add chain ${TABLE} from-guests { type filter hook prerouting priority 0; policy accept; }`,
  `flush chain ${TABLE} to-guests`,
  `flush chain ${TABLE} from-guests`,
  `add rule ${TABLE} to-guests oifname vmap @inbound`,
  `add rule ${TABLE} from-guests iifname vmap @outbound`,
].join('\n')}\n`;

const flowSets = (n: { flows4: string; flows6: string }) => [
  `add set ${TABLE} ${n.flows4} { type ipv4_addr . inet_proto . inet_service . inet_service; flags dynamic,timeout; timeout 5m; size 65536; }`,
  `add set ${TABLE} ${n.flows6} { type ipv6_addr . inet_proto . inet_service . inet_service; flags dynamic,timeout; timeout 5m; size 65536; }`,
];

const names = (tap: string) => ({
  inbound: `in-${tap}`,
  outbound: `out-${tap}`,
  trackInbound: `track-in-${tap}`,
  trackOutbound: `track-out-${tap}`,
  flows4: `flows4-${tap}`,
  flows6: `flows6-${tap}`,
});

const protocolMatch: Record<Rule['protocol'], string> = {
  tcp: 'meta l4proto tcp',
  udp: 'meta l4proto udp',
  icmp: 'meta l4proto icmp',
  icmpv6: 'meta l4proto ipv6-icmp',
  any: '',
};

function ruleMatch(rule: Rule): string {
  const family = rule.cidr.includes(':') ? 'ip6' : 'ip';
  const remote = rule.direction === 'inbound' ? 'saddr' : 'daddr';
  // The rule's port is the guest's own for inbound traffic and the remote's for outbound: the
  // destination port either way.
  const port = rule.port_from === null ? '' : `th dport ${rule.port_from}-${rule.port_to ?? rule.port_from}`;
  return [`${family} ${remote} ${rule.cidr}`, protocolMatch[rule.protocol], port].filter(Boolean).join(' ');
}

/**
 * A flow is (remote address, protocol, remote port, guest's port). One the guest opened or a rule
 * let in is remembered in the guest's flow sets (nftables' own dynamic sets, refreshed by each
 * packet, forgotten after five idle minutes), so its replies pass the other way: the firewall
 * is stateful without the kernel's bridge connection tracking, which not every host has.
 */
function flowKey(family: 'ip' | 'ip6', towardsGuest: boolean): string {
  return towardsGuest
    ? `${family} saddr . meta l4proto . th sport . th dport`
    : `${family} daddr . meta l4proto . th dport . th sport`;
}

/**
 * The nftables transaction that makes a guest's firewall what `set` says, replacing whatever it
 * had: enabled, inbound traffic no rule accepts is dropped (but for replies to the guest's own
 * flows, ICMP errors and echo replies, and neighbour discovery), outbound traffic no rule drops is
 * accepted; disabled, its chains are empty and nothing is filtered. `nft -f` applies it whole or
 * not at all.
 */
export function firewallScript(tap: string, set: FirewallSet): string {
  const n = names(tap);
  const lines = [
    ...flowSets(n),
    ...[n.inbound, n.outbound, n.trackInbound, n.trackOutbound].flatMap((chain) => [
      `add chain ${TABLE} ${chain}`,
      `flush chain ${TABLE} ${chain}`,
    ]),
    `add element ${TABLE} inbound { "${tap}" : jump ${n.inbound} }`,
    `add element ${TABLE} outbound { "${tap}" : jump ${n.outbound} }`,
  ];
  if (!set.enabled) return `${lines.join('\n')}\n`;
  const rule = (chain: string, body: string) => lines.push(`add rule ${TABLE} ${chain} ${body}`);
  for (const [chain, towardsGuest] of [
    [n.trackInbound, true],
    [n.trackOutbound, false],
  ] as const) {
    rule(chain, `meta l4proto { tcp, udp } update @${n.flows4} { ${flowKey('ip', towardsGuest)} }`);
    rule(chain, `meta l4proto { tcp, udp } update @${n.flows6} { ${flowKey('ip6', towardsGuest)} }`);
    rule(chain, 'accept');
  }
  // Inbound: what is not IP (ARP) passes; replies to flows pass; then the rules; then drop.
  rule(n.inbound, 'ether type != { ip, ip6 } accept');
  rule(n.inbound, `meta l4proto { tcp, udp } ${flowKey('ip', true)} @${n.flows4} accept`);
  rule(n.inbound, `meta l4proto { tcp, udp } ${flowKey('ip6', true)} @${n.flows6} accept`);
  rule(
    n.inbound,
    'icmp type { echo-reply, destination-unreachable, time-exceeded, parameter-problem } accept',
  );
  rule(
    n.inbound,
    'icmpv6 type { nd-neighbor-solicit, nd-neighbor-advert, nd-router-advert, echo-reply, destination-unreachable, packet-too-big, time-exceeded, parameter-problem } accept',
  );
  // Outbound: replies to flows let in pass before any rule could drop them.
  rule(n.outbound, `meta l4proto { tcp, udp } ${flowKey('ip', false)} @${n.flows4} accept`);
  rule(n.outbound, `meta l4proto { tcp, udp } ${flowKey('ip6', false)} @${n.flows6} accept`);
  for (const r of set.rules) {
    const inbound = r.direction === 'inbound';
    const chain = inbound ? n.inbound : n.outbound;
    const verdict = r.action === 'accept' ? `goto ${inbound ? n.trackInbound : n.trackOutbound}` : 'drop';
    rule(chain, `${ruleMatch(r)} ${verdict}`);
  }
  rule(n.inbound, 'drop');
  rule(n.outbound, `goto ${n.trackOutbound}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The transaction that removes a guest's firewall: each object is added before it is deleted, so
 * the script holds whether or not it was there.
 */
export function firewallRemovalScript(tap: string): string {
  const n = names(tap);
  const chains = [n.inbound, n.outbound, n.trackInbound, n.trackOutbound];
  return `${[
    ...flowSets(n),
    ...chains.map((chain) => `add chain ${TABLE} ${chain}`),
    `add element ${TABLE} inbound { "${tap}" : jump ${n.inbound} }`,
    `add element ${TABLE} outbound { "${tap}" : jump ${n.outbound} }`,
    ...chains.map((chain) => `flush chain ${TABLE} ${chain}`),
    `delete element ${TABLE} inbound { "${tap}" }`,
    `delete element ${TABLE} outbound { "${tap}" }`,
    ...chains.map((chain) => `delete chain ${TABLE} ${chain}`),
    `delete set ${TABLE} ${n.flows4}`,
    `delete set ${TABLE} ${n.flows6}`,
  ].join('\n')}\n`;
}
