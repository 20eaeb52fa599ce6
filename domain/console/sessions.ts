import type { Verdict } from '../errors.js';
import type { InstanceStatus } from '../instances/statuses.js';

// A console session (SPEC.md §4 "Console"): one user at one instance's console, through a
// console gateway, for a short while.

/** What an instance's console may be: its serial port as text, or its screen. */
export const CONSOLE_KINDS = ['serial', 'graphical'] as const;
export type ConsoleKind = (typeof CONSOLE_KINDS)[number];

/** The hypervisor capability that offers each kind (reported by its agent's heartbeat). */
export const CONSOLE_CAPABILITY = {
  serial: 'console_serial',
  graphical: 'console_graphical',
} as const satisfies Record<ConsoleKind, string>;

/**
 * `pending`: made, its connect token not yet redeemed; `validated`: a gateway redeemed it and is
 * relaying; `connected`: the gateway reported the relay up; `ended`: over, with its reason.
 */
export const CONSOLE_SESSION_STATES = ['pending', 'validated', 'connected', 'ended'] as const;
export type ConsoleSessionState = (typeof CONSOLE_SESSION_STATES)[number];

/** Why a session ended; a gateway cuts a live relay for any of them. */
export const CONSOLE_END_REASONS = [
  'disconnected',
  'revoked',
  'expired',
  'instance_deleted',
  'instance_migrated',
  'gateway_lost',
] as const;
export type ConsoleEndReason = (typeof CONSOLE_END_REASONS)[number];

/** The states from which a session is still live (not ended). */
export const LIVE_CONSOLE_STATES = [
  'pending',
  'validated',
  'connected',
] as const satisfies readonly ConsoleSessionState[];

/** An instance without a guest (yet, or any more) has no console. */
const NO_CONSOLE: readonly InstanceStatus[] = ['provisioning', 'deleting', 'deleted'];

/**
 * Whether a console session of `kind` may begin: the instance has a guest, its hypervisor offers
 * the kind, and it has fewer than `maxLive` live sessions.
 */
export function mayOpenConsole(input: {
  status: InstanceStatus;
  kind: ConsoleKind;
  offered: readonly ConsoleKind[];
  liveSessions: number;
  maxLive: number;
}): Verdict {
  if (NO_CONSOLE.includes(input.status))
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: `The instance is ${input.status}: it has no console.`,
    };
  if (!input.offered.includes(input.kind))
    return {
      ok: false,
      code: 'SVC-CONFLICT-409',
      detail: `The instance’s hypervisor offers no ${input.kind} console.`,
    };
  if (input.liveSessions >= input.maxLive)
    return {
      ok: false,
      code: 'SVC-QUOTA-409',
      detail: `An instance has at most ${input.maxLive} console sessions at once; revoke one first.`,
    };
  return { ok: true };
}

/** The kinds a hypervisor offers, from the capabilities its agent reported. */
export const offeredConsoles = (capabilities: readonly string[]): ConsoleKind[] =>
  (Object.keys(CONSOLE_CAPABILITY) as ConsoleKind[]).filter((k) =>
    capabilities.includes(CONSOLE_CAPABILITY[k]),
  );
