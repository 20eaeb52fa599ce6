import type { ApiVersion } from '../../domain/api-versions/versions.js';

/** An envelope as it is sent: `{ object, attributes, … }`, after JSON. */
export type WireEnvelope = { readonly object: string } & Record<string, unknown>;

/**
 * One change of what clients see, made in `version` (docs/api-changelog.md). Serializers render
 * the current shape only; a change says, per envelope type (`object`), how to turn that shape into
 * the one of the version before it, so a client pinned there keeps what it was built against.
 * A downgrade returns a new envelope and leaves the one it is given as it was.
 */
export interface VersionChange {
  readonly version: ApiVersion;
  /** The changelog's line for it. */
  readonly summary: string;
  readonly downgrade: Readonly<Record<string, (envelope: WireEnvelope) => WireEnvelope>>;
}
