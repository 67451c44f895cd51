import 'server-only';
import { headers } from 'next/headers';
import { storefrontEnv } from './env.ts';
import { siteOrigin } from './site.ts';

/** The origin of absolute URLs in this response (see siteOrigin). */
export async function requestOrigin(): Promise<string> {
  return siteOrigin(storefrontEnv().STOREFRONT_PUBLIC_URL, await headers());
}

/** The CSP nonce proxy.ts made for this response (empty outside a page request). */
export async function requestNonce(): Promise<string> {
  return (await headers()).get('x-nonce') ?? '';
}
