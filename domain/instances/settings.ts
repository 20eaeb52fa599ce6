import { z } from 'zod';
import type { Verdict } from '../errors.js';
import { text } from '../input-bounds.js';

/**
 * The instance settings a customer changes (SPEC.md §4 "Console, SSH and settings"), as schemas
 * every input that sets them uses: rename, the hostname and the timezone, at create as after it.
 */

export const instanceName = text({ max: 100, trim: true });

/** RFC 1123 §2.1: letters, digits and hyphens, labels of 1 to 63 characters, at most 253 in all. */
export const HOSTNAME_MAX = 253;
const HOSTNAME_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

function hostnameProblem(value: string): string | undefined {
  if (value.length === 0 || value.length > HOSTNAME_MAX) {
    return `Must be 1 to ${HOSTNAME_MAX} characters.`;
  }
  const labels = value.split('.');
  if (!labels.every((label) => HOSTNAME_LABEL.test(label))) {
    return (
      'Must be labels of 1 to 63 letters, digits and hyphens, separated by dots; a label neither ' +
      'starts nor ends with a hyphen.'
    );
  }
  // RFC 1123 §2.1: a name must not be mistakable for a dotted-decimal address.
  if (/^\d+$/.test(labels.at(-1)!)) return 'The last label must not be all digits.';
  return undefined;
}

export const hostname = z
  .string()
  .max(HOSTNAME_MAX, { abort: true, message: `Must be 1 to ${HOSTNAME_MAX} characters.` })
  .regex(/^[A-Za-z0-9.-]+$/, { abort: true, message: 'Must be letters, digits, hyphens and dots.' })
  .superRefine((value, ctx) => {
    const problem = hostnameProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

let zones: ReadonlySet<string> | undefined;

// A path segment spelled as the tz database spells its current names (Kolkata, Buenos_Aires).
const ZONE_SEGMENT = /^[A-Z][a-z]+(?:[_-][A-Za-z][a-z]*)*$/;

/**
 * An IANA zone the runtime knows: one of the names it lists, or UTC. The list holds CLDR's
 * canonical names, some of them older than the tz database's (Asia/Calcutta, Europe/Kiev), so a
 * current name the runtime resolves (Asia/Kolkata, Europe/Kyiv) is accepted too, if it is spelled
 * in the database's case: a guest looks its zone file up by exact name.
 */
function isTimezone(value: string): boolean {
  zones ??= new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]);
  if (zones.has(value)) return true;
  const segments = value.split('/');
  if (segments.length < 2 || !segments.every((segment) => ZONE_SEGMENT.test(segment))) return false;
  try {
    return zones.has(new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone);
  } catch {
    return false;
  }
}

export const timezone = z
  .string()
  .max(64, { abort: true, message: 'Must be at most 64 characters.' })
  .regex(/^[A-Za-z0-9_+\-/]+$/, {
    abort: true,
    message: 'Must be an IANA time zone name, such as Europe/Berlin, or UTC.',
  })
  .refine(isTimezone, { message: 'Must be an IANA time zone name, such as Europe/Berlin, or UTC.' });

export const INSTANCE_SETTINGS = ['rename', 'hostname', 'timezone'] as const;
export type InstanceSetting = (typeof INSTANCE_SETTINGS)[number];

/**
 * Why a setting may not change now. A running operation may be carrying the old value to the
 * hypervisor (create and rebuild take the hostname and timezone), and a migration moves the
 * instance's record: neither may change under them.
 */
export function maySettingChange(facts: {
  readonly operationRunning: boolean;
  readonly migrating: boolean;
}): Verdict {
  if (facts.migrating) {
    return {
      ok: false,
      code: 'INSTANCE_MIGRATING',
      detail: 'The instance is being migrated; try again once the migration ends.',
    };
  }
  if (facts.operationRunning) {
    return {
      ok: false,
      code: 'SVC-OP-409',
      detail: 'Another operation is in progress on this instance; try again once it ends.',
    };
  }
  return { ok: true };
}
