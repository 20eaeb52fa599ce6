import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAPIBackend } from 'openapi-backend';
import { inject } from 'vitest';
import { buildApis } from '../../api/index.js';
import { DOCUMENT_NAMES, DOCUMENTS, openApiDocuments } from '../../api/reference/openapi.js';
import { API_VERSION_HEADER, CURRENT_API_VERSION } from '../../domain/api-versions/versions.js';

interface Document {
  readonly base: string;
  readonly api: OpenAPIBackend;
}

let documents: Promise<Document[]> | undefined;

/** The five documents as the server builds them, each behind its validator; longest base first. */
function loaded(): Promise<Document[]> {
  documents ??= (async () => {
    const built = openApiDocuments(buildApis());
    const all = await Promise.all(
      DOCUMENT_NAMES.map(async (name) => {
        const api = new OpenAPIBackend({
          // biome-ignore lint/suspicious/noExplicitAny: openapi-backend takes its own document type
          definition: built[name] as any,
          quick: true,
          validate: true,
          ajvOpts: { strict: false, allErrors: false, validateFormats: false },
        });
        await api.init();
        return { base: DOCUMENTS[name].base, api };
      }),
    );
    return all.sort((a, b) => b.base.length - a.base.length);
  })();
  return documents;
}

/**
 * The run's record of which operations were answered, and with what status: a file per test
 * process, which the summary reporter reads at the end of the run.
 */
function reached(base: string, operationId: string, status: number): void {
  const folder = inject('contractFolder');
  mkdirSync(folder, { recursive: true });
  appendFileSync(join(folder, `${process.pid}.log`), `${base} ${operationId} ${status}\n`);
}

/**
 * What is wrong with an answer, measured against the OpenAPI document of the API it came from
 * (openapi-backend, Ajv under it): a status the operation does not document, or a JSON body its
 * schema for that status does not describe. Undefined when nothing is wrong, and for a request no
 * document has an operation for (an unknown route, a page, a probe).
 */
export async function contractBreach(
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: unknown,
): Promise<string | undefined> {
  const { pathname, searchParams } = new URL(url, 'http://test');
  const document = (await loaded()).find((d) => pathname === d.base || pathname.startsWith(`${d.base}/`));
  if (!document) return undefined;
  const path = pathname.slice(document.base.length) || '/';
  const operation = document.api.matchOperation({
    method: method.toLowerCase(),
    path,
    query: Object.fromEntries(searchParams),
    headers: {},
  });
  if (!operation) return undefined;
  reached(document.base, operation.operationId!, status);
  const where = `${method.toUpperCase()} ${pathname} (${operation.operationId})`;
  const documented = operation.responses ?? {};
  const declared = documented[String(status)] ?? documented[`${String(status)[0]}XX`] ?? documented.default;
  if (!declared) return `${where} answered ${status}, which its document does not list`;
  if (!contentType?.includes('json') || body === undefined || body === '') return undefined;
  const checked = document.api.validateResponse(body, operation, status);
  if (checked.valid) return undefined;
  return `${where} answered ${status} with a body its document does not describe: ${JSON.stringify(checked.errors)}`;
}

/**
 * A page's request, answered by the admin pages on a path they share with the admin API: no
 * credential, and HTML accepted (the rule of web/admin/http.ts `wantsPage`).
 */
const asksForPage = (headers: Headers) =>
  !headers.has('authorization') && /\btext\/html\b/.test(headers.get('accept') ?? '');

/**
 * Whether an answer is in the version the documents describe, the current one. An answer in an
 * older version is held to that version's shape by the tests of its change (test/api/
 * versions.test.ts); its status is still checked here, its body not.
 */
export function inDocumentedVersion(answer: Headers): boolean {
  const rendered = answer.get(API_VERSION_HEADER);
  return rendered === null || rendered === CURRENT_API_VERSION;
}

/**
 * An answer of the API in a test, checked against its document before the test reads it (its body
 * read from a copy, and only when it is JSON: a stream is left alone).
 */
export async function checkedResponse(request: Request, res: Response): Promise<Response> {
  const contentType = res.headers.get('content-type');
  const text =
    inDocumentedVersion(res.headers) && contentType?.includes('json') ? await res.clone().text() : '';
  const body = text === '' ? undefined : JSON.parse(text);
  await assertContract(request.method, request.url, request.headers, res.status, contentType, body);
  return res;
}

/** Throws the breach (or, with RESPONSE_CONTRACT_REPORT set, appends it to that file). */
export async function assertContract(
  method: string,
  url: string,
  requestHeaders: Headers,
  status: number,
  contentType: string | null,
  body: unknown,
): Promise<void> {
  if (asksForPage(requestHeaders)) return;
  const breach = await contractBreach(method, url, status, contentType, body);
  if (!breach) return;
  const report = process.env.RESPONSE_CONTRACT_REPORT;
  if (report) appendFileSync(report, `${breach}\n`);
  else throw new Error(breach);
}
