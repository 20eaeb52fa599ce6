import type { TemporalLinks } from '../serializers/moves/move.js';
import { z } from '../zod.js';

// What every event presenter is (docs/events.md "Payload"): an outbox snapshot (the columns the
// resource's subject function recorded, timestamps as text) parsed into the row its repository
// returns, then rendered by that resource's own serializer, so an event shows the resource exactly
// as its API does.

/** What a rendering may need beyond the snapshot: the links an administrator's view carries. */
export interface RenderContext {
  readonly links: TemporalLinks;
}

/** No Temporal Web UI link: the documents' examples, and a renderer given no configuration. */
export const NO_LINKS: RenderContext = {
  links: { TEMPORAL_UI_URL: undefined, TEMPORAL_NAMESPACE: 'default' },
};

export interface EventPresenter<Envelope extends z.ZodType> {
  /** The wire schema of the envelope: what `data.object` is in the documents. */
  readonly schema: Envelope;
  present(snapshot: unknown, context: RenderContext): z.infer<Envelope>;
  /** A snapshot of the example resource in `status` (its status or state), for the documents. */
  example(status: string): Record<string, unknown>;
}

/** A timestamp as to_jsonb writes it, read back as the Date the repository would return. */
export const at = z.string().transform((text) => new Date(text));
export const atOrNull = at.nullable();

/** The documents' examples: one moment, and the ids the example resources share. */
export const EXAMPLE_AT = '2026-11-22T01:02:03.000Z';
export const EXAMPLE_IDS = {
  instance: '3f9d6c2e-5b1a-4e8f-9c7d-2a4b6e8f0a1c',
  user: '8c1e4a7b-2d3f-4b5c-9e6a-7f8091a2b3c4',
  hypervisor: '5e2a9c1f-7b3d-4e6a-8c0f-1d2e3f4a5b6c',
  location: '7a3b5c9d-1e2f-4a6b-8c0d-2e4f6a8b0c1d',
} as const;
