import { asNode, type Node } from './document-node.ts';
import { anchorOf, escapeHtml, renderMarkdown } from './html.ts';
import { operationAnchor, renderOperation } from './render-operation.ts';
import { renderSchema, schemaAnchor, typeLabel } from './render-schema.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Entry {
  isWebhook: boolean;
  method: string;
  /** The path, or the event name of a webhook. */
  path: string;
  pathItem: Node;
  operation: Node;
}

function entriesOf(items: unknown, isWebhook: boolean): Entry[] {
  return Object.entries(asNode(items)).flatMap(([path, value]) => {
    const pathItem = asNode(value);
    return METHODS.filter((method) => pathItem[method]).map((method) => ({
      isWebhook,
      method,
      path,
      pathItem,
      operation: asNode(pathItem[method]),
    }));
  });
}

/** Entries grouped by their first tag, in the document's tag order, untagged last. */
function groupByTag(document: Node, entries: Entry[]): Array<[string, Entry[]]> {
  const groups = Map.groupBy(entries, (entry) => {
    const tags = entry.operation.tags;
    return Array.isArray(tags) && typeof tags[0] === 'string' ? tags[0] : 'Other';
  });
  const order = (Array.isArray(document.tags) ? document.tags : []).map((tag) => String(asNode(tag).name));
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return [...groups].sort(([a], [b]) => rank(a) - rank(b));
}

function tagDescription(document: Node, name: string): string {
  const tag = (Array.isArray(document.tags) ? document.tags : []).map(asNode).find((t) => t.name === name);
  return renderMarkdown(tag?.description);
}

function renderNav(groups: Array<[string, Entry[]]>, extra: string[]): string {
  const sections = groups.map(
    ([tag, entries]) =>
      `<div class="group"><a href="#${anchorOf('tag', tag)}">${escapeHtml(tag)}</a></div><ul>${entries
        .map(
          (e) =>
            `<li><a href="#${operationAnchor(e.method, e.path, e.operation)}">${escapeHtml(e.method.toUpperCase())} ${escapeHtml(e.path)}</a></li>`,
        )
        .join('')}</ul>`,
  );
  const links = extra.map(
    (name) => `<div class="group"><a href="#${anchorOf(name)}">${escapeHtml(name)}</a></div>`,
  );
  return `<nav>${sections.join('')}${links.join('')}</nav>`;
}

function renderSecurity(document: Node): string {
  const schemes = Object.entries(asNode(asNode(document.components).securitySchemes));
  if (schemes.length === 0) return '';
  const items = schemes.map(([name, value]) => {
    const scheme = asNode(value);
    const kind = [scheme.type, scheme.scheme, scheme.bearerFormat]
      .filter(Boolean)
      .map(escapeHtml)
      .join(' · ');
    return `<h3>${escapeHtml(name)} <span class="note">${kind}</span></h3>${renderMarkdown(scheme.description)}`;
  });
  return `<h2 id="${anchorOf('Authentication')}">Authentication</h2>${items.join('')}`;
}

function renderHeaderComponents(document: Node): string {
  const headers = Object.entries(asNode(asNode(document.components).headers));
  if (headers.length === 0) return '';
  const rows = headers.map(([name, value]) => {
    const header = asNode(value);
    return `<tr><td><code>${escapeHtml(name)}</code></td><td>${typeLabel(header.schema)}${renderMarkdown(header.description)}</td></tr>`;
  });
  return `<h2 id="${anchorOf('Headers')}">Headers and rate limits</h2><table><tbody>${rows.join('')}</tbody></table>`;
}

function renderProblemTypes(document: Node): string {
  const list = document['x-problem-types'];
  if (!Array.isArray(list) || list.length === 0) return '';
  const rows = list
    .map(asNode)
    .map(
      (p) =>
        `<tr><td>${escapeHtml(p.status)}</td><td><code>${escapeHtml(p.code)}</code></td><td>${escapeHtml(p.title)}</td><td><code>${escapeHtml(p.type)}</code></td></tr>`,
    );
  return `<h2 id="${anchorOf('Problem types')}">Problem types</h2><p>Every error is <code>application/problem+json</code> (RFC 9457).</p><table><thead><tr><th>status</th><th>code</th><th>title</th><th>type</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function renderSchemas(document: Node): string {
  const schemas = Object.entries(asNode(asNode(document.components).schemas));
  if (schemas.length === 0) return '';
  const items = schemas.map(
    ([name, schema]) =>
      `<section class="op" id="${schemaAnchor(name)}"><h3>${escapeHtml(name)}</h3>${renderSchema(schema)}</section>`,
  );
  return `<h2 id="${anchorOf('Schemas')}">Schemas</h2>${items.join('')}`;
}

function renderGroups(document: Node, groups: Array<[string, Entry[]]>): string {
  return groups
    .map(
      ([tag, entries]) =>
        `<h2 id="${anchorOf('tag', tag)}">${escapeHtml(tag)}</h2>${tagDescription(document, tag)}${entries
          .map((entry) => renderOperation(document, entry))
          .join('')}`,
    )
    .join('');
}

/** The whole reference page of an OpenAPI 3.x document: self-contained HTML with the given inline CSS. */
export function renderDocsPage(document: Node, css: string): string {
  const info = asNode(document.info);
  const groups = groupByTag(document, entriesOf(document.paths, false));
  const webhookGroups = groupByTag(document, entriesOf(document.webhooks, true));
  const servers = (Array.isArray(document.servers) ? document.servers : []).map(asNode);
  const extra = ['Authentication', 'Headers', 'Problem types', 'Schemas'];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title ?? 'API')} ${escapeHtml(info.version ?? '')}</title><style>${css}</style></head>
<body>${renderNav([...groups, ...webhookGroups], extra)}<main>
<h1>${escapeHtml(info.title ?? 'API')} <span class="note">${escapeHtml(info.version ?? '')} · OpenAPI ${escapeHtml(document.openapi ?? '')}</span></h1>
${info.summary ? `<p class="summary">${escapeHtml(info.summary)}</p>` : ''}
${renderMarkdown(info.description)}
${servers.length ? `<p>Servers: ${servers.map((s) => `<code>${escapeHtml(s.url)}</code> ${renderMarkdown(s.description).replace(/<\/?p>/g, '')}`).join('; ')}</p>` : ''}
<p>Machine-readable: <a href="/v2/openapi.json">/v2/openapi.json</a></p>
${renderSecurity(document)}${renderHeaderComponents(document)}
${renderGroups(document, groups)}${renderGroups(document, webhookGroups)}
${renderProblemTypes(document)}${renderSchemas(document)}
</main></body></html>
`;
}
