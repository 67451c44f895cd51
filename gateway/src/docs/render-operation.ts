import { asNode, type Node, resolveRef } from '@keygate/contracts/gateway';
import { anchorOf, html, renderMarkdown, type SafeHtml } from './html.ts';
import { renderSchema, typeLabel } from './render-schema.ts';

/** The link target of an operation. */
export function operationAnchor(method: string, path: string, operation: Node): string {
  return anchorOf(
    'op',
    typeof operation.operationId === 'string' ? operation.operationId : `${method}-${path}`,
  );
}

const REQUIRED = html` <span class="req">required</span>`;

function renderParameters(document: Node, operation: Node, pathItem: Node): SafeHtml | '' {
  const all = [
    ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ].map((parameter) => resolveRef(document, parameter));
  if (all.length === 0) return '';
  const rows = all.map(
    (p) =>
      html`<tr><td><code>${p.name}</code>${p.required ? REQUIRED : ''}</td><td>${p.in}</td><td>${typeLabel(p.schema)}${renderMarkdown(p.description)}</td></tr>`,
  );
  return html`<h4>Parameters</h4><table class="params"><thead><tr><th>name</th><th>in</th><th>schema</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** Each media type with its schema; a referenced component is shown expanded below its link. */
function renderContent(document: Node, content: unknown): SafeHtml[] {
  return Object.entries(asNode(content)).map(([type, media]) => {
    const schema = asNode(asNode(media).schema);
    const shown =
      typeof schema.$ref === 'string'
        ? html`${typeLabel(schema)}${renderSchema(resolveRef(document, schema))}`
        : renderSchema(schema);
    return html`<div class="media"><code>${type}</code> ${shown}</div>`;
  });
}

function renderRequestBody(document: Node, operation: Node): SafeHtml | '' {
  if (!operation.requestBody) return '';
  const body = resolveRef(document, operation.requestBody);
  const flag = body.required ? REQUIRED : html` <span class="note">optional</span>`;
  return html`<h4>Request body${flag}</h4>${renderMarkdown(body.description)}${renderContent(document, body.content)}`;
}

function renderHeaders(document: Node, headers: unknown): SafeHtml | '' {
  const entries = Object.entries(asNode(headers));
  if (entries.length === 0) return '';
  const items = entries.map(([name, value]) => {
    const header = resolveRef(document, value);
    return html`<li><code>${name}</code>${header.required ? '' : html` <span class="note">(when applicable)</span>`}</li>`;
  });
  return html`<div class="headers">Headers: <ul>${items}</ul></div>`;
}

/** Successes first, then errors by status, `default` last. */
function statusRank(status: string): number {
  if (status === 'default') return 1000;
  const rank = Number.parseInt(status.replace(/X/gi, '0'), 10);
  return status.startsWith('2') ? rank - 1000 : rank;
}

function renderResponses(document: Node, operation: Node): SafeHtml {
  const entries = Object.entries(asNode(operation.responses));
  entries.sort(([a], [b]) => statusRank(a) - statusRank(b));
  const rows = entries.map(([status, value]) => {
    const response = resolveRef(document, value);
    const ok = status.startsWith('2');
    const body = ok ? renderContent(document, response.content) : '';
    return html`<div class="response"><span class="status ${ok ? 'ok' : 'err'}">${status}</span>${renderMarkdown(response.description)}${renderHeaders(document, response.headers)}${body}</div>`;
  });
  return html`<h4>Responses</h4>${rows}`;
}

function renderBadges(operation: Node, isWebhook: boolean): SafeHtml {
  const scope = operation['x-required-scope'];
  const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
  return html`${typeof scope === 'string' && html`<span class="scope">scope <code>${scope}</code></span>`}${
    isWebhook && html`<span class="scope">webhook: sent to your endpoint</span>`
  }${isPublic && !isWebhook && html`<span class="scope">public</span>`}${
    Boolean(operation.deprecated) && html`<span class="deprecated">deprecated</span>`
  }`;
}

/** One operation (or webhook): method, path, scope, description, parameters, request body and responses. */
export function renderOperation(
  document: Node,
  entry: { method: string; path: string; pathItem: Node; isWebhook: boolean },
): SafeHtml {
  const { method, path, pathItem } = entry;
  const operation = asNode(pathItem[method]);
  return html`<section class="op" id="${operationAnchor(method, path, operation)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${path}</code></h3>
<p class="meta"><code>${operation.operationId ?? ''}</code> ${renderBadges(operation, entry.isWebhook)}</p>
<p class="summary">${operation.summary ?? ''}</p>
${renderMarkdown(operation.description)}
${renderParameters(document, operation, pathItem)}
${renderRequestBody(document, operation)}
${renderResponses(document, operation)}
</section>`;
}
