import { FIREWALL_ACTIONS, FIREWALL_DIRECTIONS, FIREWALL_PROTOCOLS } from '../../domain/networks/firewall.js';
import { z } from '../zod.js';

/** A firewall's rules and toggle as a request gives them: a customer's, and the provider's defaults. */

const RuleBody = z
  .object({
    direction: z.enum(FIREWALL_DIRECTIONS),
    protocol: z.enum(FIREWALL_PROTOCOLS),
    port: z
      .string()
      .regex(/^\d{1,5}(?:-\d{1,5})?$/, { message: 'Must be a port or a range of two (`8000-8100`).' })
      .nullable()
      .optional()
      .openapi({ example: '22', description: 'tcp and udp only: one port or a range; none for all.' }),
    cidr: z
      .string()
      .max(60)
      .regex(/^[0-9a-fA-F:.]+(?:\/\d{1,3})?$/, {
        message: 'Must be an IPv4 or IPv6 range (address/prefix) or one address.',
      })
      .openapi({
        example: '0.0.0.0/0',
        description: 'An IPv4 or IPv6 range, or one address; host bits must be zero.',
      }),
    action: z.enum(FIREWALL_ACTIONS),
    description: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[^\p{Cc}]*$/u)
      .nullable()
      .optional(),
  })
  .strict()
  .openapi('FirewallRuleRequest');

export const Rules = z
  .array(RuleBody)
  .max(1000)
  .openapi({ description: 'In order; at most FIREWALL_RULES_MAX.' });
export const Enabled = z.boolean();
