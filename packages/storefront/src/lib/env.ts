import 'server-only';
import { z } from 'zod';

/** A keygate API key as the gateway issues it; only its shape is checked here. */
const API_KEY = /^kg_(live|test)_[A-Za-z0-9]+_[A-Za-z0-9]+$/;

/**
 * The storefront's server environment. Nothing here is `NEXT_PUBLIC_`: the key and the webhook
 * secret stay on the server, and a test asserts no page or bundle ever contains them.
 */
export const StorefrontEnvSchema = z.object({
  KEYGATE_API_KEY: z
    .string({ error: 'is required (a kg_test_… or kg_live_… key; pnpm start:storefront creates one)' })
    .regex(API_KEY, 'must be a keygate API key (kg_test_… or kg_live_…)'),
  KEYGATE_BASE_URL: z
    .url({ error: 'must be the gateway URL, e.g. http://127.0.0.1:8080' })
    .default('http://127.0.0.1:8080'),
  /** Standard Webhooks secret(s) of the endpoint registered for this storefront, space-separated while rotating. */
  KEYGATE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]+( whsec_[A-Za-z0-9+/=]+)*$/, 'must be one or more whsec_… secrets')
    .optional(),
  /** Run the shop for one B2B customer: their agreement and tier prices everywhere. */
  STOREFRONT_CUSTOMER: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a customer id like cus_0005')
    .optional(),
  /** Show the "buying as" switcher (default: only under `next dev`). */
  STOREFRONT_BUYING_AS: z.enum(['true', 'false'], { error: "must be 'true' or 'false'" }).optional(),
  /** Customer ids the "buying as" switcher offers. */
  STOREFRONT_BUYING_AS_CUSTOMERS: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}(,[A-Za-z0-9_-]{1,64})*$/, 'must be comma-separated customer ids')
    .default('cus_0001,cus_0002,cus_0003,cus_0004,cus_0005,cus_0006'),
  /**
   * The shop's public origin (https://shop.example.com) for canonical links, the sitemap and Open
   * Graph; https here also turns on HSTS. Unset: taken from each request's Host and
   * X-Forwarded-Proto.
   */
  STOREFRONT_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be the shop origin, e.g. https://shop.example.com' })
    .refine((url) => new URL(url).pathname === '/', 'must be an origin without a path')
    .optional(),
  /** Space-separated https origins product images may come from besides the gateway (a CDN). */
  STOREFRONT_IMAGE_ORIGINS: z
    .string()
    .regex(/^https:\/\/[^\s/]+( https:\/\/[^\s/]+)*$/, 'must be space-separated https origins')
    .optional(),
  /** The channel `/` opens. */
  STOREFRONT_DEFAULT_CHANNEL: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'must be a channel code')
    .default('WEB_DE'),
});

export type StorefrontEnv = z.infer<typeof StorefrontEnvSchema>;

/** Every problem of the environment on one line, as `config error: …` wants it. */
export function describeEnvError(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
}

let cached: StorefrontEnv | undefined;

/** The validated environment (read once; instrumentation.ts stops the server on a bad value). */
export function storefrontEnv(): StorefrontEnv {
  if (cached) return cached;
  const parsed = StorefrontEnvSchema.safeParse(process.env);
  if (!parsed.success) throw new Error(`config error: ${describeEnvError(parsed.error)}`);
  cached = parsed.data;
  return cached;
}

/** True when the "buying as" switcher is on (never while STOREFRONT_CUSTOMER pins the customer). */
export function isBuyingAsEnabled(env: StorefrontEnv = storefrontEnv()): boolean {
  if (env.STOREFRONT_CUSTOMER) return false;
  if (env.STOREFRONT_BUYING_AS) return env.STOREFRONT_BUYING_AS === 'true';
  return process.env.NODE_ENV === 'development';
}
