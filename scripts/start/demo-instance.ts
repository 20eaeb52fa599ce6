import { DEMO } from '../../db/seeds/demo.js';

export interface DemoInstance {
  readonly uuid: string;
  readonly status: string;
}

const DEMO_INSTANCE_IDEMPOTENCY_KEY = 'npm-start-demo-instance';

/**
 * The demo instance, created through the Client API like a customer's (with an Idempotency-Key:
 * a start interrupted after the request gets the same instance again) when the seed asks for it,
 * else found by its name; then awaited until it runs, so that the banner's examples work at once.
 * Gives up waiting after `waitMs` and says where it stands.
 */
export async function demoInstance(
  apiUrl: string,
  clientKey: string,
  create: Record<string, string> | undefined,
  waitMs: number,
): Promise<DemoInstance> {
  const headers = { Authorization: `Bearer ${clientKey}` };
  let uuid: string | undefined;
  if (create) {
    const res = await fetch(`${apiUrl}/api/client/cloud`, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Type': 'application/json',
        'Idempotency-Key': DEMO_INSTANCE_IDEMPOTENCY_KEY,
      },
      body: JSON.stringify(create),
    });
    if (res.status !== 202)
      throw new Error(`creating the demo instance failed: ${res.status} ${await res.text()}`);
    uuid = ((await res.json()) as { attributes: { uuid: string } }).attributes.uuid;
  } else {
    const res = await fetch(`${apiUrl}/api/client/cloud?per_page=100`, { headers });
    const list = (await res.json()) as { data: { attributes: { uuid: string; name: string } }[] };
    uuid = list.data.find((i) => i.attributes.name === DEMO.instance)?.attributes.uuid;
    if (!uuid) throw new Error(`the demo customer has no instance named ${DEMO.instance}`);
  }
  const deadline = Date.now() + waitMs;
  for (;;) {
    const res = await fetch(`${apiUrl}/api/client/cloud/${uuid}`, { headers });
    const { status } = ((await res.json()) as { attributes: { status: string } }).attributes;
    if (status !== 'provisioning' || Date.now() > deadline) return { uuid, status };
    await new Promise((r) => setTimeout(r, 500));
  }
}
