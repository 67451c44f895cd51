import { z } from 'zod';

/** A path segment naming an API version, such as `v2`. */
export const VERSION_SEGMENT = /^v\d+$/;

/** The API versions the gateway serves; the route table's paths all live under these. */
export const SUPPORTED_VERSIONS: readonly string[] = Object.freeze(['v2']);

const InstantSchema = z.iso.datetime({
  offset: true,
  error: 'must be an ISO 8601 date-time such as 2027-01-01T00:00:00Z',
});

/**
 * When a route (or a whole version) was or will be deprecated, when it stops answering (never
 * before it is deprecated) and the https page explaining the policy and the way out.
 */
export const DeprecationSchema = z
  .strictObject({
    at: InstantSchema,
    sunset: InstantSchema,
    link: z.url({ protocol: /^https$/, error: 'must be an https URL' }),
  })
  .refine((deprecation) => Date.parse(deprecation.sunset) >= Date.parse(deprecation.at), {
    path: ['sunset'],
    message: 'must not be earlier than the deprecation date (at)',
  });

export type Deprecation = z.infer<typeof DeprecationSchema>;
