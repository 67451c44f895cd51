import { serializeJsonLd } from '../lib/structured-data.ts';

/**
 * Structured data for search engines. `application/ld+json` is data, which CSP never executes;
 * the nonce is there anyway so a policy that treats every script alike still passes it.
 */
export function JsonLd({ data, nonce }: { data: unknown; nonce: string }) {
  return (
    <script
      type="application/ld+json"
      nonce={nonce}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: serializeJsonLd escapes <, > and &.
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  );
}
