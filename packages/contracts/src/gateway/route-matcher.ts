/** The scope every management route (`/v2/auth/keys…`) requires. */
export const MANAGEMENT_SCOPE = 'auth:rw';
