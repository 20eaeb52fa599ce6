/**
 * The body of an openapi-fetch answer. The agent's and the gateway's clients throw on every
 * failure themselves (their `fetch` retries or refuses), so an answer without a body is a success
 * the document gives none for: a 204, which the caller that expects one reads from `data` itself.
 */
export function answered<T>(result: { data?: T; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`the panel answered ${result.response.status} with no body to ${result.response.url}`);
  }
  return result.data;
}
