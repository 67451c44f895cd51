import { asNode, type Node } from './document-node.ts';
import { anchorOf, escapeHtml, renderMarkdown } from './html.ts';

const SCHEMA_REF = '#/components/schemas/';

/** The link target of a component schema. */
export function schemaAnchor(name: string): string {
  return anchorOf('schema', name);
}

function refLink(ref: string): string {
  if (!ref.startsWith(SCHEMA_REF)) return `<code>${escapeHtml(ref)}</code>`;
  const name = ref.slice(SCHEMA_REF.length);
  return `<a href="#${schemaAnchor(name)}">${escapeHtml(name)}</a>`;
}

function constraints(schema: Node): string[] {
  const notes: string[] = [];
  const pairs: Array<[string, string]> = [
    ['minimum', '≥'],
    ['maximum', '≤'],
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
  ];
  for (const [key, label] of pairs) if (schema[key] !== undefined) notes.push(`${label} ${schema[key]}`);
  if (typeof schema.pattern === 'string') notes.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
  if (typeof schema.format === 'string') notes.push(escapeHtml(schema.format));
  if (schema.default !== undefined)
    notes.push(`default <code>${escapeHtml(JSON.stringify(schema.default))}</code>`);
  return notes;
}

/** A one-line label of a schema's type: `string`, `integer ≥ 1`, `array of Cart`, `Price | null`. */
export function typeLabel(value: unknown): string {
  const schema = asNode(value);
  if (typeof schema.$ref === 'string') return refLink(schema.$ref);
  const variants = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(variants)) return variants.map(typeLabel).join(' | ');
  if (Array.isArray(schema.allOf)) return schema.allOf.map(typeLabel).join(' &amp; ');
  if (schema.const !== undefined) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum)) {
    return `one of ${schema.enum.map((item) => `<code>${escapeHtml(JSON.stringify(item))}</code>`).join(', ')}`;
  }
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any');
  const base = type === 'array' ? `array of ${typeLabel(schema.items)}` : escapeHtml(type);
  const notes = constraints(schema);
  return notes.length ? `${base} <span class="note">(${notes.join(', ')})</span>` : base;
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

function propertiesTable(object: Node, depth: number): string {
  const required = new Set(Array.isArray(object.required) ? (object.required as string[]) : []);
  const rows = Object.entries(asNode(object.properties)).map(([name, property]) => {
    const node = asNode(property);
    const inner = depth < 5 ? innerObject(node) : null;
    const flag = required.has(name) ? ' <span class="req">required</span>' : '';
    const nested = inner ? propertiesTable(inner, depth + 1) : '';
    return `<tr><td><code>${escapeHtml(name)}</code>${flag}</td><td>${typeLabel(node)}${renderMarkdown(node.description)}${nested}</td></tr>`;
  });
  return rows.length ? `<table class="props"><tbody>${rows.join('')}</tbody></table>` : '';
}

/** A schema as HTML: its type label, description and, for inline objects, a table of properties (nested). */
export function renderSchema(value: unknown): string {
  const schema = asNode(value);
  const inner = innerObject(schema);
  const head = `<div class="type">${typeLabel(schema)}</div>${renderMarkdown(schema.description)}`;
  const allOf = Array.isArray(schema.allOf) ? schema.allOf.map((part) => innerObject(asNode(part))) : [];
  const tables = [inner, ...allOf].filter((node) => node !== null).map((node) => propertiesTable(node, 0));
  return head + tables.join('');
}
