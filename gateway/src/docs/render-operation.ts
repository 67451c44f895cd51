import { asNode, type Node } from './document-node.ts';
import { anchorOf, escapeHtml, renderMarkdown } from './html.ts';
import { renderSchema, typeLabel } from './render-schema.ts';

/** Follows a local `$ref` (also chains), keeping a sibling `description` as the override it is in 3.1. */
export function resolveRef(document: Node, value: unknown): Node {
  let node = asNode(value);
  const override = typeof node.description === 'string' && node.$ref ? node.description : undefined;
  for (let hops = 0; typeof node.$ref === 'string' && node.$ref.startsWith('#/') && hops < 8; hops++) {
    let target: unknown = document;
    for (const part of node.$ref.slice(2).split('/')) target = asNode(target)[part.replaceAll('~1', '/')];
    node = asNode(target);
  }
  return override === undefined ? node : { ...node, description: override };
}

/** The link target of an operation. */
export function operationAnchor(method: string, path: string, operation: Node): string {
  return anchorOf(
    'op',
    typeof operation.operationId === 'string' ? operation.operationId : `${method}-${path}`,
  );
}

function renderParameters(document: Node, operation: Node, pathItem: Node): string {
  const all = [
    ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ].map((parameter) => resolveRef(document, parameter));
  if (all.length === 0) return '';
  const rows = all.map(
    (p) =>
      `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ''}</td><td>${escapeHtml(p.in)}</td><td>${typeLabel(p.schema)}${renderMarkdown(p.description)}</td></tr>`,
  );
  return `<h4>Parameters</h4><table class="params"><thead><tr><th>name</th><th>in</th><th>schema</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Each media type with its schema; a referenced component is shown expanded below its link. */
function renderContent(document: Node, content: unknown): string {
  return Object.entries(asNode(content))
    .map(([type, media]) => {
      const schema = asNode(asNode(media).schema);
      const shown =
        typeof schema.$ref === 'string'
          ? `${typeLabel(schema)}${renderSchema(resolveRef(document, schema))}`
          : renderSchema(schema);
      return `<div class="media"><code>${escapeHtml(type)}</code> ${shown}</div>`;
    })
    .join('');
}

function renderRequestBody(document: Node, operation: Node): string {
  if (!operation.requestBody) return '';
  const body = resolveRef(document, operation.requestBody);
  const flag = body.required ? ' <span class="req">required</span>' : ' <span class="note">optional</span>';
  return `<h4>Request body${flag}</h4>${renderMarkdown(body.description)}${renderContent(document, body.content)}`;
}

function renderHeaders(document: Node, headers: unknown): string {
  const entries = Object.entries(asNode(headers));
  if (entries.length === 0) return '';
  const items = entries.map(([name, value]) => {
    const header = resolveRef(document, value);
    return `<li><code>${escapeHtml(name)}</code>${header.required ? '' : ' <span class="note">(when applicable)</span>'}</li>`;
  });
  return `<div class="headers">Headers: <ul>${items.join('')}</ul></div>`;
}

/** Successes first, then errors by status, `default` last. */
function statusRank(status: string): number {
  if (status === 'default') return 1000;
  const rank = Number.parseInt(status.replace(/X/gi, '0'), 10);
  return status.startsWith('2') ? rank - 1000 : rank;
}

function renderResponses(document: Node, operation: Node): string {
  const entries = Object.entries(asNode(operation.responses));
  entries.sort(([a], [b]) => statusRank(a) - statusRank(b));
  const rows = entries.map(([status, value]) => {
    const response = resolveRef(document, value);
    const cls = status.startsWith('2') ? 'ok' : 'err';
    const body = status.startsWith('2') ? renderContent(document, response.content) : '';
    return `<div class="response"><span class="status ${cls}">${escapeHtml(status)}</span>${renderMarkdown(response.description)}${renderHeaders(document, response.headers)}${body}</div>`;
  });
  return `<h4>Responses</h4>${rows.join('')}`;
}

/** One operation (or webhook): method, path, scope, description, parameters, request body and responses. */
export function renderOperation(
  document: Node,
  entry: { method: string; path: string; pathItem: Node; isWebhook: boolean },
): string {
  const { method, path, pathItem } = entry;
  const operation = asNode(pathItem[method]);
  const scope = operation['x-required-scope'];
  const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
  const badges = [
    typeof scope === 'string' ? `<span class="scope">scope <code>${escapeHtml(scope)}</code></span>` : '',
    entry.isWebhook ? '<span class="scope">webhook: sent to your endpoint</span>' : '',
    isPublic && !entry.isWebhook ? '<span class="scope">public</span>' : '',
    operation.deprecated ? '<span class="deprecated">deprecated</span>' : '',
  ].join('');
  return `<section class="op" id="${operationAnchor(method, path, operation)}">
<h3><span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code class="path">${escapeHtml(path)}</code></h3>
<p class="meta"><code>${escapeHtml(operation.operationId ?? '')}</code> ${badges}</p>
<p class="summary">${escapeHtml(operation.summary ?? '')}</p>
${renderMarkdown(operation.description)}
${renderParameters(document, operation, pathItem)}
${renderRequestBody(document, operation)}
${renderResponses(document, operation)}
</section>`;
}
