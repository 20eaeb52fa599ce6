import ipaddr from 'ipaddr.js';

/**
 * An instance's firewall (SPEC.md §4 "firewall"): ordered rules, the first that matches a packet
 * decides; with the firewall enabled, inbound traffic no rule accepts is dropped and outbound
 * traffic no rule drops is accepted. Turning it off keeps the rules. The hypervisor applies the
 * rules and the toggle as one set, never half.
 */

export const FIREWALL_DIRECTIONS = ['inbound', 'outbound'] as const;
export type FirewallDirection = (typeof FIREWALL_DIRECTIONS)[number];
export const FIREWALL_PROTOCOLS = ['tcp', 'udp', 'icmp', 'icmpv6', 'any'] as const;
export type FirewallProtocol = (typeof FIREWALL_PROTOCOLS)[number];
export const FIREWALL_ACTIONS = ['accept', 'drop'] as const;
export type FirewallAction = (typeof FIREWALL_ACTIONS)[number];

/** The most rules one instance's firewall may hold (FIREWALL_RULES_MAX is at most this). */
export const FIREWALL_RULES_CEILING = 200;

export interface FirewallRule {
  readonly direction: FirewallDirection;
  readonly protocol: FirewallProtocol;
  readonly port_from: number | null;
  readonly port_to: number | null;
  /** The remote range, canonical: where inbound traffic comes from, where outbound goes. */
  readonly cidr: string;
  readonly action: FirewallAction;
  readonly description: string | null;
}

export interface Firewall {
  readonly enabled: boolean;
  readonly rules: readonly FirewallRule[];
}

/** A rule as a request gives it: `port` is one port (`22`) or a range (`8000-8100`). */
export interface FirewallRuleRequest {
  readonly direction: FirewallDirection;
  readonly protocol: FirewallProtocol;
  readonly port?: string | null;
  readonly cidr: string;
  readonly action: FirewallAction;
  readonly description?: string | null;
}

/** What is wrong with one field of a rule. */
export interface RuleRefusal {
  readonly field: 'port' | 'cidr' | 'protocol';
  readonly detail: string;
}

/** The remote range, canonical, or what is wrong with it; a bare address is that one host. */
function canonicalRange(value: string): { cidr: string; family: 4 | 6 } | string {
  const spelled = value.includes('/') ? value : `${value}/${value.includes(':') ? 128 : 32}`;
  const v4 = ipaddr.IPv4.isValidCIDRFourPartDecimal(spelled);
  if (!v4 && (spelled.includes('.') || !ipaddr.IPv6.isValidCIDR(spelled)))
    return 'Must be an IPv4 or IPv6 range (address/prefix) or a single address.';
  const [address, prefix] = ipaddr.parseCIDR(spelled);
  const network = v4
    ? ipaddr.IPv4.networkAddressFromCIDR(spelled)
    : ipaddr.IPv6.networkAddressFromCIDR(spelled);
  if (network.toString() !== address.toString())
    return `Has host bits set: the range is ${network.toString()}/${prefix}.`;
  return { cidr: `${network.toString()}/${prefix}`, family: v4 ? 4 : 6 };
}

function portRange(protocol: FirewallProtocol, port: string | null | undefined) {
  if (port === null || port === undefined) return { port_from: null, port_to: null };
  if (protocol !== 'tcp' && protocol !== 'udp') return 'Only a tcp or udp rule has ports.';
  const [from, to = from] = port.split('-').map(Number);
  if (!from || !to || from > 65_535 || to > 65_535)
    return 'Must be a port (1–65535) or a range of two (`8000-8100`).';
  if (from > to) return 'The range must run from the lower port to the higher.';
  return { port_from: from, port_to: to };
}

/** The rule as the panel keeps it, or what is wrong with it, naming the field. */
export function checkFirewallRule(rule: FirewallRuleRequest): FirewallRule | RuleRefusal {
  const range = canonicalRange(rule.cidr);
  if (typeof range === 'string') return { field: 'cidr', detail: range };
  if ((rule.protocol === 'icmp' && range.family === 6) || (rule.protocol === 'icmpv6' && range.family === 4))
    return {
      field: 'protocol',
      detail: `${rule.protocol} is for IPv${range.family === 6 ? 4 : 6}; use ${rule.protocol === 'icmp' ? 'icmpv6' : 'icmp'} with this range.`,
    };
  const ports = portRange(rule.protocol, rule.port);
  if (typeof ports === 'string') return { field: 'port', detail: ports };
  return {
    direction: rule.direction,
    protocol: rule.protocol,
    ...ports,
    cidr: range.cidr,
    action: rule.action,
    description: rule.description ?? null,
  };
}

export const isRuleRefusal = (value: FirewallRule | RuleRefusal): value is RuleRefusal => 'field' in value;
