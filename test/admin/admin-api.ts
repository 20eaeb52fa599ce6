import type { Body } from '../harness.js';

/** One request to the admin API (`/admin/cloudsvc`) with `key` as the bearer, or none; its status and body. */
export async function adminCall(
  baseUrl: string,
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${baseUrl}/admin/cloudsvc${path}`, {
    method,
    headers: {
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}
