/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** An id usable in `id` and `#fragment`: letters, digits, `-` and `_` only. */
export function anchorOf(...parts: string[]): string {
  return parts
    .join('-')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

/**
 * The little Markdown OpenAPI descriptions use, as HTML: paragraphs, `- ` lists, `code` and
 * **bold**. Everything else stays text (escaped); links are not made, so no URL becomes a resource.
 */
export function renderMarkdown(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.split('\n');
      const items = lines.filter((line) => line.startsWith('- '));
      const prose = lines.filter((line) => !line.startsWith('- ')).join(' ');
      const list = items.length
        ? `<ul>${items.map((item) => `<li>${inline(item.slice(2))}</li>`).join('')}</ul>`
        : '';
      return (prose ? `<p>${inline(prose)}</p>` : '') + list;
    })
    .join('\n');
}
