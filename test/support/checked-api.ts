import type { buildApp } from '../../server/app.js';
import type { AroundRequest } from '../../server/start.js';
import { checkedResponse } from './response-contract.js';

/** The app, whose `request` checks each answer against the API's document (response-contract.ts). */
export function checkedApp<A extends ReturnType<typeof buildApp>>(app: A): A {
  const request: A['request'] = async (input, init, ...rest) => {
    const res = await app.request(input, init, ...rest);
    // What was asked, without its body (sent already, and not needed to judge the answer).
    const asked = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'));
    const headers = new Headers(init?.headers ?? asked.headers);
    return checkedResponse(new Request(asked.url, { method: init?.method ?? asked.method, headers }), res);
  };
  return new Proxy(app, {
    get: (target, key, receiver) => (key === 'request' ? request : Reflect.get(target, key, receiver)),
  });
}

/**
 * For a listening API: every answer, to the test or to an agent, is checked. A breach cannot fail
 * the request's caller (an agent), so it is kept, and fails `assertKept` when the stack closes.
 */
export function serverContract() {
  const breaches: string[] = [];
  const around: AroundRequest = async (request, answer) => {
    const res = await answer();
    const asked = new Request(request.url, { method: request.method, headers: request.headers });
    await checkedResponse(asked, res).catch((breach: Error) => breaches.push(breach.message));
    return res;
  };
  return {
    around,
    assertKept() {
      if (breaches.length > 0)
        throw new Error(`answers their documents do not describe:\n${breaches.join('\n')}`);
    },
  };
}
