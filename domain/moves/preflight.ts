import type { MoveMode, MoveStrategy } from './states.js';

// The parts of a preflight every kind of move shares: the strategy a mode gives, and the warnings
// about the strategy and the transfer's length. Each kind adds its own blockers (what keeps the
// instance, a target or a backend from the move).

export interface Finding<C extends string> {
  readonly code: C;
  readonly detail: string;
}

export interface MovePolicy {
  /** Whether AUTO may choose live (MIGRATION_AUTO_LIVE). */
  readonly autoLive: boolean;
  /** Disk throughput assumed for the transfer estimate, MB/s. */
  readonly transferMbPerSecond: number;
  /** An estimate above this is warned about, seconds. */
  readonly longTransferSeconds: number;
}

/** The strategy a mode gives where the hypervisor that runs the guest after can (or cannot) take it live. */
export function strategyFor(mode: MoveMode, live: boolean, policy: MovePolicy): MoveStrategy | undefined {
  switch (mode) {
    case 'LIVE_REQUIRED':
      return live ? 'live' : undefined;
    case 'LIVE_IF_POSSIBLE':
      return live ? 'live' : 'cold';
    case 'AUTO':
      return live && policy.autoLive ? 'live' : 'cold';
    case 'COLD':
      return 'cold';
  }
}

export const MOVE_WARNINGS = {
  LIVE_FALLBACK_TO_COLD:
    'Live migration is not possible to this target; the move will be cold (the instance stops).',
  COLD_MOVE_STOPS_INSTANCE: 'A cold move stops the running instance until it starts on the target.',
  LONG_TRANSFER: 'The disk transfer is estimated to take long.',
} as const;
export type MoveWarningCode = keyof typeof MOVE_WARNINGS;

/** What the strategy means for the guest: a fallback from live, a stop of a running one. */
export function strategyWarnings(
  mode: MoveMode,
  strategy: MoveStrategy,
  guestStatus: string,
): Finding<MoveWarningCode>[] {
  const found: Finding<MoveWarningCode>[] = [];
  if (mode === 'LIVE_IF_POSSIBLE' && strategy === 'cold')
    found.push({ code: 'LIVE_FALLBACK_TO_COLD', detail: MOVE_WARNINGS.LIVE_FALLBACK_TO_COLD });
  if (strategy === 'cold' && guestStatus === 'running')
    found.push({ code: 'COLD_MOVE_STOPS_INSTANCE', detail: MOVE_WARNINGS.COLD_MOVE_STOPS_INSTANCE });
  return found;
}

/** A copy of `sizeMb` estimated to take longer than the policy's limit. */
export function transferWarnings(sizeMb: number, policy: MovePolicy): Finding<'LONG_TRANSFER'>[] {
  const seconds = Math.ceil(sizeMb / policy.transferMbPerSecond);
  if (seconds <= policy.longTransferSeconds) return [];
  return [
    { code: 'LONG_TRANSFER', detail: `${MOVE_WARNINGS.LONG_TRANSFER} About ${seconds} s for ${sizeMb} MB.` },
  ];
}
