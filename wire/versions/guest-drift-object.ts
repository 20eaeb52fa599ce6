import type { VersionChange, WireEnvelope } from './change.js';

// 2026-12-06: an instance's drift became one object, `guest_drift: { state, since } | null`,
// instead of two fields that had to be read together (`guest_drift`, `guest_drift_since`).

interface DriftAttributes extends Record<string, unknown> {
  readonly guest_drift: { readonly state: string; readonly since: string } | null;
}

/** The attributes before 2026-12-06: the state and its time side by side, in that order. */
function flatDrift(envelope: WireEnvelope): WireEnvelope {
  const current = envelope.attributes as DriftAttributes;
  const drift = current.guest_drift;
  const attributes: Record<string, unknown> = {};
  // Rebuilt key by key, so the fields keep the place they had in the older answers.
  for (const [key, value] of Object.entries(current)) {
    if (key !== 'guest_drift') attributes[key] = value;
    else {
      attributes.guest_drift = drift?.state ?? null;
      attributes.guest_drift_since = drift?.since ?? null;
    }
  }
  return { ...envelope, attributes };
}

export const guestDriftObject: VersionChange = {
  version: '2026-12-06',
  summary:
    'An instance’s `guest_drift` (in `cloud_instance` and `instance_diagnostics`) is one object, ' +
    '`{ state, since }`, or null; `guest_drift_since` is gone.',
  downgrade: { cloud_instance: flatDrift, instance_diagnostics: flatDrift },
};
