import { asNode, type Node } from '@keygate/contracts/gateway';
import { anchorOf, html, joinHtml, renderMarkdown, type SafeHtml } from './html.ts';

const SCHEMA_REF = '#/components/schemas/';

/** The link target of a component schema. */
export function schemaAnchor(name: string): string {
  return anchorOf('schema', name);
}

function refLink(ref: string): SafeHtml {
  if (!ref.startsWith(SCHEMA_REF)) return html`<code>${ref}</code>`;
  const name = ref.slice(SCHEMA_REF.length);
  return html`<a href="#${schemaAnchor(name)}">${name}</a>`;
}

const CONSTRAINTS: ReadonlyArray<[string, string]> = [
  ['minimum', '≥'],
  ['maximum', '≤'],
  ['minLength', 'min length'],
  ['maxLength', 'max length'],
  ['minItems', 'min items'],
  ['maxItems', 'max items'],
];

function constraints(schema: Node): SafeHtml[] {
  const notes: SafeHtml[] = [];
  for (const [key, label] of CONSTRAINTS) {
    if (schema[key] !== undefined) notes.push(html`${label} ${String(schema[key])}`);
  }
  if (typeof schema.pattern === 'string') notes.push(html`pattern <code>${schema.pattern}</code>`);
  if (typeof schema.format === 'string') notes.push(html`${schema.format}`);
  if (schema.default !== undefined) notes.push(html`default <code>${JSON.stringify(schema.default)}</code>`);
  return notes;
}

/** A one-line label of a schema's type: `string`, `integer ≥ 1`, `array of Cart`, `Price | null`. */
export function typeLabel(value: unknown): SafeHtml {
  const schema = asNode(value);
  if (typeof schema.$ref === 'string') return refLink(schema.$ref);
  const variants = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(variants)) return joinHtml(variants.map(typeLabel), ' | ');
  if (Array.isArray(schema.allOf)) return joinHtml(schema.allOf.map(typeLabel), ' & ');
  if (schema.const !== undefined) return html`<code>${JSON.stringify(schema.const)}</code>`;
  if (Array.isArray(schema.enum)) {
    return html`one of ${joinHtml(
      schema.enum.map((item) => html`<code>${JSON.stringify(item)}</code>`),
      ', ',
    )}`;
  }
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any');
  const base = type === 'array' ? html`array of ${typeLabel(schema.items)}` : html`${type}`;
  const notes = constraints(schema);
  return notes.length ? html`${base} <span class="note">(${joinHtml(notes, ', ')})</span>` : base;
}

/** The inline object schema a property shows as a nested table: itself, its items, or a nullable variant. */
function innerObject(schema: Node): Node | null {
  if (schema.type === 'object' || schema.properties) return schema;
  if (schema.type === 'array') return innerObject(asNode(schema.items));
  const variants = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (!Array.isArray(variants)) return null;
  const objects = variants.map((variant) => innerObject(asNode(variant))).filter((node) => node !== null);
  return objects.length === 1 ? objects[0]! : null;
}

function propertiesTable(object: Node, depth: number): SafeHtml | '' {
  const required = new Set(Array.isArray(object.required) ? (object.required as unknown[]) : []);
  const rows = Object.entries(asNode(object.properties)).map(([name, property]) => {
    const node = asNode(property);
    const inner = depth < 5 ? innerObject(node) : null;
    const flag = required.has(name) && html` <span class="req">required</span>`;
    const nested = inner && propertiesTable(inner, depth + 1);
    return html`<tr><td><code>${name}</code>${flag}</td><td>${typeLabel(node)}${renderMarkdown(node.description)}${nested}</td></tr>`;
  });
  return rows.length ? html`<table class="props"><tbody>${rows}</tbody></table>` : '';
}

/** A schema as HTML: its type label, description and, for inline objects, a table of properties (nested). */
export function renderSchema(value: unknown): SafeHtml {
  const schema = asNode(value);
  const inner = innerObject(schema);
  const allOf = Array.isArray(schema.allOf) ? schema.allOf.map((part) => innerObject(asNode(part))) : [];
  const tables = [inner, ...allOf].filter((node) => node !== null).map((node) => propertiesTable(node, 0));
  return html`<div class="type">${typeLabel(schema)}</div>${renderMarkdown(schema.description)}${tables}`;
}
