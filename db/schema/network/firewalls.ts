import type { Generated } from 'kysely';
import type {
  FirewallAction,
  FirewallDirection,
  FirewallProtocol,
} from '../../../domain/networks/firewall.js';

// An instance's firewall rules, in order (the instance row holds the toggle and the revisions).

export interface FirewallRulesTable {
  id: Generated<string>;
  instance_id: string;
  /** 0-based; the first rule that matches a packet decides. */
  position: number;
  direction: FirewallDirection;
  protocol: FirewallProtocol;
  port_from: number | null;
  port_to: number | null;
  /** The peer's range: the source of inbound traffic, the destination of outbound. */
  cidr: string;
  action: FirewallAction;
  description: string | null;
}

/** The provider's default firewall (one row): every new instance is born with it. */
export interface FirewallDefaultsTable {
  id: Generated<boolean>;
  enabled: boolean;
  updated_at: Generated<Date>;
}

/** The default firewall's rules, in order, as an instance's are. */
export interface FirewallDefaultRulesTable {
  /** 0-based; the first rule that matches a packet decides. */
  position: number;
  direction: FirewallDirection;
  protocol: FirewallProtocol;
  port_from: number | null;
  port_to: number | null;
  cidr: string;
  action: FirewallAction;
  description: string | null;
}
