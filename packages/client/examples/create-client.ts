import { createKeygateClient, type KeygateClient } from '@keygate/client';

/**
 * One client per integration, configured from the environment. The key is read before every call,
 * so deploying a rotated secret (a new KEYGATE_API_KEY) takes effect without a restart.
 */
export function createClientFromEnv(env: NodeJS.ProcessEnv = process.env): KeygateClient {
  return createKeygateClient({
    baseUrl: env.KEYGATE_URL ?? 'http://127.0.0.1:8080',
    apiKey: () => env.KEYGATE_API_KEY ?? '',
    // Failed calls are sent again up to twice, waiting Retry-After (30 s in all); POST and PATCH
    // too, under the Idempotency-Key the client gives each (see "Retries and idempotency keys").
    retry: { maxRetries: 2, maxWaitSeconds: 30 },
    onNotice(notice) {
      if (notice.kind === 'key-expiry') {
        console.warn(`keygate: this API key expires on ${notice.expiresOn} (${notice.daysLeft} days left)`);
      } else {
        const sunset = notice.sunsetAt ? `, stops answering after ${notice.sunsetAt.toISOString()}` : '';
        console.warn(
          `keygate: ${notice.operation} is deprecated${sunset} (${notice.link ?? 'no policy link'})`,
        );
      }
    },
  });
}
