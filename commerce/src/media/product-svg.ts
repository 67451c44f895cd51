import { createHash } from 'node:crypto';

/**
 * The generated product image: a square SVG with a colour and a pattern taken from the SKU and the
 * product's initials in the middle. A pure function of its inputs (which its URL carries), so the
 * same URL always answers the same bytes and one strong ETag. The drawing holds only shapes and the
 * initials, already limited to A-Z and 0-9, plus the SKU in the title, escaped: no script, no
 * external reference, nothing a browser could run.
 */

/** A SKU a generated image may be drawn for (what the catalogue's SKUs look like). */
export const SKU_PATTERN = /^[A-Za-z0-9._~-]{1,64}$/;
/** The initials part of a generated image's file name. */
export const INITIALS_PATTERN = /^[A-Z0-9]{1,2}$/;

/** FNV-1a over the UTF-16 code units: a stable, well-spread number per SKU. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The SVG of a product's generated image, `size` pixels square. */
export function renderProductSvg(sku: string, initials: string, size: number): string {
  const hash = hashOf(sku);
  const hue = hash % 360;
  const accent = (hue + 40 + ((hash >>> 9) % 60)) % 360;
  // Dark text on a light background: a contrast ratio far above 4.5:1 for any hue.
  const background = `hsl(${hue} 55% 86%)`;
  const shape = `hsl(${accent} 45% 74%)`;
  const ink = `hsl(${hue} 60% 18%)`;
  const half = size / 2;
  const radius = Math.round(size * (0.28 + ((hash >>> 17) % 10) / 100));
  const fontSize = Math.round(size * (initials.length > 1 ? 0.3 : 0.38));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}" role="img">`,
    `<title>${escapeXml(sku)}</title>`,
    `<rect width="${size}" height="${size}" fill="${background}"/>`,
    `<circle cx="${half}" cy="${half}" r="${radius}" fill="${shape}"/>`,
    `<text x="${half}" y="${half}" dy="0.35em" text-anchor="middle" font-family="system-ui, sans-serif" font-weight="600" font-size="${fontSize}" fill="${ink}">${escapeXml(initials)}</text>`,
    '</svg>',
  ].join('');
}

/** A strong ETag of a body: a quoted SHA-256 prefix, the same for the same bytes in every process. */
export function strongEtagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}
