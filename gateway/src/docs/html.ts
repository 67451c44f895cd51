/**
 * Markup that is safe to output as is: built by `html` (whose interpolations are escaped) or
 * marked by `raw`. The page is assembled only from these, so a string read from the document can
 * reach it only escaped.
 */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }

  /** The markup. */
  toString(): string {
    return this.value;
  }
}

function escapeText(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** An interpolated value as markup: SafeHtml as is, arrays joined, nothing for null/undefined/false, else escaped text. */
function toMarkup(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(toMarkup).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeText(String(value));
}

/**
 * Tagged template for markup: every interpolation is escaped for element content and quoted
 * attribute values unless it is SafeHtml (or an array of it).
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += toMarkup(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Marks markup the page itself produced (e.g. its own stylesheet) as safe; never pass document text. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** The items as one fragment, `separator` (escaped unless SafeHtml) between them. */
export function joinHtml(items: readonly unknown[], separator: unknown): SafeHtml {
  return new SafeHtml(items.map(toMarkup).join(toMarkup(separator)));
}

/** An id usable in `id` and `#fragment`: letters, digits, `-` and `_` only. */
export function anchorOf(...parts: string[]): string {
  return parts
    .join('-')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `code` and **bold** of one line; the text is escaped first, so only these two tags are made. */
export function renderInlineMarkdown(text: unknown): SafeHtml {
  if (typeof text !== 'string') return raw('');
  const markup = escapeText(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  return raw(markup);
}

/**
 * The little Markdown OpenAPI descriptions use, as HTML: paragraphs, `- ` lists, `code` and
 * **bold**. Everything else stays text (escaped); links are not made, so no URL becomes a resource.
 */
export function renderMarkdown(text: unknown): SafeHtml {
  if (typeof text !== 'string' || text.trim() === '') return raw('');
  const blocks = text
    .trim()
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.split('\n');
      const items = lines.filter((line) => line.startsWith('- '));
      const prose = lines.filter((line) => !line.startsWith('- ')).join(' ');
      const list = items.map((item) => html`<li>${renderInlineMarkdown(item.slice(2))}</li>`);
      return html`${prose ? html`<p>${renderInlineMarkdown(prose)}</p>` : ''}${items.length ? html`<ul>${list}</ul>` : ''}`;
    });
  return joinHtml(blocks, '\n');
}
