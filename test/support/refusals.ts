import { expect } from 'vitest';
import type { Reply } from './http.js';

/** Sends each body and expects a 400 whose errors name its field. */
export async function expectFieldRefusals(
  send: (body: Record<string, unknown>) => Promise<Reply>,
  cases: readonly (readonly [Record<string, unknown>, string])[],
): Promise<void> {
  for (const [body, field] of cases) {
    const refused = await send(body);
    expect(refused.status, JSON.stringify(body)).toBe(400);
    expect(refused.body.errors.map((e: { source?: { field: string } }) => e.source?.field)).toContain(field);
  }
}

/** The statuses of requests sent at once, sorted: `[201, 409]` whichever came first. */
export const statusesOf = (replies: readonly Reply[]) => replies.map((r) => r.status).sort();
