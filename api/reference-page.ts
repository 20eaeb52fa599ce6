/**
 * The API reference at /docs: rendered here from the OpenAPI documents, with no script or
 * asset from elsewhere, so it works on a machine with no internet access.
 */
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string }>;
}

export interface ReferenceDocument {
  info: { title: string; description?: string; version: string };
  servers?: { url: string }[];
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

function schemaText(schema: unknown, doc: ReferenceDocument): string {
  const ref = (schema as { $ref?: string } | undefined)?.$ref;
  if (ref) {
    const name = ref.split('/').pop()!;
    return `${name} ${JSON.stringify(doc.components?.schemas?.[name] ?? {}, null, 2)}`;
  }
  return JSON.stringify(schema ?? {}, null, 2);
}

function renderOperation(doc: ReferenceDocument, path: string, method: string, op: Operation): string {
  const base = doc.servers?.[0]?.url ?? '';
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<li><code>${escapeHtml(p.name)}</code> (${escapeHtml(p.in)}${p.required ? ', required' : ''})</li>`,
    )
    .join('');
  const body = op.requestBody?.content?.['application/json']?.schema;
  const responses = Object.entries(op.responses ?? {})
    .map(([status, r]) => `<li><b>${escapeHtml(status)}</b> ${escapeHtml(r.description ?? '')}</li>`)
    .join('');
  return `<section class="op">
  <h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(base + path)}</code></h3>
  <p>${escapeHtml(op.summary ?? '')}${op.operationId ? ` <code class="id">${escapeHtml(op.operationId)}</code>` : ''}</p>${op.description ? `<p class="d">${escapeHtml(op.description)}</p>` : ''}
  ${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}
  ${body ? `<h4>Request body</h4><pre>${escapeHtml(schemaText(body, doc))}</pre>` : ''}
  <h4>Responses</h4><ul>${responses}</ul>
</section>`;
}

/** `name` is the document's name in /openapi/<name>.json. */
export function renderReference(documents: { name: string; document: ReferenceDocument }[]): string {
  const links = documents
    .map(({ name }) => `<a href="/openapi/${escapeHtml(name)}.json">${escapeHtml(name)}</a>`)
    .join(', ');
  const sections = documents
    .map(({ document: doc }) => {
      const ops = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => renderOperation(doc, path, method, op)),
      );
      const body = ops.length > 0 ? ops.join('\n') : '<p>No operations yet.</p>';
      return `<h2>${escapeHtml(doc.info.title)}</h2><p>${escapeHtml(doc.info.description ?? '')}</p>${body}`;
    })
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>cloudsvc API reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
code,pre{font-family:ui-monospace,monospace}pre{background:#f4f5f7;padding:.6rem;overflow:auto;font-size:13px}
.op{border-top:1px solid #dde;padding:.5rem 0}.m{display:inline-block;min-width:4.5rem;font-size:13px;color:#fff;
border-radius:3px;text-align:center;padding:1px 4px}.get{background:#2b6cb0}.post{background:#2f855a}
.patch,.put{background:#b7791f}.delete{background:#c53030}.d{color:#444}.id{color:#666;font-size:13px}</style></head><body>
<h1>cloudsvc API reference</h1><p>OpenAPI documents: ${links}.</p>
${sections}</body></html>`;
}
