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

type Send = (method: string, path: string) => Promise<Reply>;

/** Deletes `path` (204); then it is gone to a show and to a second delete alike (404). */
export async function expectDeletedOnce(send: Send, path: string): Promise<void> {
  expect((await send('DELETE', path)).status).toBe(204);
  expect((await send('GET', path)).status).toBe(404);
  expect((await send('DELETE', path)).status).toBe(404);
}

/** Two deletes of `path` at once, both refused while it is held, with the detail that says by what. */
export async function expectInUseTwice(send: Send, path: string, detail: string): Promise<void> {
  for (const refused of await Promise.all([send('DELETE', path), send('DELETE', path)])) {
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({ code: 'SVC-INUSE-409', detail });
  }
}
