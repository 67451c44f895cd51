/** One member of a structured-field list (RFC 9651): its value and its `;key=value` parameters. */
export interface FieldItem {
  value: string;
  params: Map<string, string>;
}

/** Splits `text` on `separator` outside double-quoted strings (which may hold `\"`). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quoted && char === '\\') {
      current += char + (text[i + 1] ?? '');
      i++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

/** The text of a bare item: a quoted string is unquoted and unescaped, a token is kept as is. */
function bareItem(raw: string): string {
  const text = raw.trim();
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return text;
}

/**
 * Parses a structured-field list such as `"per-key";q=100;w=60, "burst";q=10;w=1` leniently:
 * members that are empty are skipped, a parameter without `=` gets the value `?1` (true).
 */
export function parseFieldList(header: string | null): FieldItem[] {
  if (!header) return [];
  const items: FieldItem[] = [];
  for (const member of splitOutsideQuotes(header, ',')) {
    const [head = '', ...rawParams] = splitOutsideQuotes(member, ';');
    const value = bareItem(head);
    if (!value) continue;
    const params = new Map<string, string>();
    for (const param of rawParams) {
      const [name = '', ...rest] = param.split('=');
      const key = name.trim().toLowerCase();
      if (key) params.set(key, rest.length ? bareItem(rest.join('=')) : '?1');
    }
    items.push({ value, params });
  }
  return items;
}

/** A parameter as a non-negative integer, or undefined when absent or not one. */
export function integerParam(item: FieldItem | undefined, name: string): number | undefined {
  const raw = item?.params.get(name);
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}
