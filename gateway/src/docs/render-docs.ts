import { asNode, type Node } from '@keygate/contracts/gateway';
import {
  anchorOf,
  html,
  joinHtml,
  raw,
  renderInlineMarkdown,
  renderMarkdown,
  type SafeHtml,
} from './html.ts';
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

function tagDescription(document: Node, name: string): SafeHtml {
  const tag = (Array.isArray(document.tags) ? document.tags : []).map(asNode).find((t) => t.name === name);
  return renderMarkdown(tag?.description);
}

function renderNav(groups: Array<[string, Entry[]]>, extra: string[]): SafeHtml {
  const sections = groups.map(
    ([tag, entries]) =>
      html`<div class="group"><a href="#${anchorOf('tag', tag)}">${tag}</a></div><ul>${entries.map(
        (e) =>
          html`<li><a href="#${operationAnchor(e.method, e.path, e.operation)}">${e.method.toUpperCase()} ${e.path}</a></li>`,
      )}</ul>`,
  );
  const links = extra.map((name) => html`<div class="group"><a href="#${anchorOf(name)}">${name}</a></div>`);
  return html`<nav>${sections}${links}</nav>`;
}

function renderSecurity(document: Node): SafeHtml | '' {
  const schemes = Object.entries(asNode(asNode(document.components).securitySchemes));
  if (schemes.length === 0) return '';
  const items = schemes.map(([name, value]) => {
    const scheme = asNode(value);
    const kind = [scheme.type, scheme.scheme, scheme.bearerFormat].filter(Boolean).map(String).join(' · ');
    return html`<h3>${name} <span class="note">${kind}</span></h3>${renderMarkdown(scheme.description)}`;
  });
  return html`<h2 id="${anchorOf('Authentication')}">Authentication</h2>${items}`;
}

function renderHeaderComponents(document: Node): SafeHtml | '' {
  const headers = Object.entries(asNode(asNode(document.components).headers));
  if (headers.length === 0) return '';
  const rows = headers.map(([name, value]) => {
    const header = asNode(value);
    return html`<tr><td><code>${name}</code></td><td>${typeLabel(header.schema)}${renderMarkdown(header.description)}</td></tr>`;
  });
  return html`<h2 id="${anchorOf('Headers')}">Headers and rate limits</h2><table><tbody>${rows}</tbody></table>`;
}

function renderProblemTypes(document: Node): SafeHtml | '' {
  const list = document['x-problem-types'];
  if (!Array.isArray(list) || list.length === 0) return '';
  const rows = list
    .map(asNode)
    .map(
      (p) =>
        html`<tr><td>${p.status}</td><td><code>${p.code}</code></td><td>${p.title}</td><td><code>${p.type}</code></td></tr>`,
    );
  return html`<h2 id="${anchorOf('Problem types')}">Problem types</h2><p>Every error is <code>application/problem+json</code> (RFC 9457).</p><table><thead><tr><th>status</th><th>code</th><th>title</th><th>type</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function renderSchemas(document: Node): SafeHtml | '' {
  const schemas = Object.entries(asNode(asNode(document.components).schemas));
  if (schemas.length === 0) return '';
  const items = schemas.map(
    ([name, schema]) =>
      html`<section class="op" id="${schemaAnchor(name)}"><h3>${name}</h3>${renderSchema(schema)}</section>`,
  );
  return html`<h2 id="${anchorOf('Schemas')}">Schemas</h2>${items}`;
}

function renderGroups(document: Node, groups: Array<[string, Entry[]]>): SafeHtml[] {
  return groups.map(
    ([tag, entries]) =>
      html`<h2 id="${anchorOf('tag', tag)}">${tag}</h2>${tagDescription(document, tag)}${entries.map(
        (entry) => renderOperation(document, entry),
      )}`,
  );
}

function renderServers(document: Node): SafeHtml | '' {
  const servers = (Array.isArray(document.servers) ? document.servers : []).map(asNode);
  if (servers.length === 0) return '';
  const items = servers.map((s) => html`<code>${s.url}</code> ${renderInlineMarkdown(s.description)}`);
  return html`<p>Servers: ${joinHtml(items, '; ')}</p>`;
}

/** The whole reference page of an OpenAPI 3.x document: self-contained HTML with the page's own inline CSS. */
export function renderDocsPage(document: Node, css: string): string {
  const info = asNode(document.info);
  const groups = groupByTag(document, entriesOf(document.paths, false));
  const webhookGroups = groupByTag(document, entriesOf(document.webhooks, true));
  const extra = ['Authentication', 'Headers', 'Problem types', 'Schemas'];
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${info.title ?? 'API'} ${info.version ?? ''}</title><style>${raw(css)}</style></head>
<body>${renderNav([...groups, ...webhookGroups], extra)}<main>
<h1>${info.title ?? 'API'} <span class="note">${info.version ?? ''} · OpenAPI ${document.openapi ?? ''}</span></h1>
${Boolean(info.summary) && html`<p class="summary">${info.summary}</p>`}
${renderMarkdown(info.description)}
${renderServers(document)}
<p>Machine-readable: <a href="/v2/openapi.json">/v2/openapi.json</a></p>
${renderSecurity(document)}${renderHeaderComponents(document)}
${renderGroups(document, groups)}${renderGroups(document, webhookGroups)}
${renderProblemTypes(document)}${renderSchemas(document)}
</main></body></html>
`;
  return page.value;
}
