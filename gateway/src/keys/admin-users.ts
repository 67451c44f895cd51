import { z } from 'zod';
import { GatewayError } from '../errors.ts';
import type { AdminUser } from '../model/model.ts';
import type { KeyStore } from '../store/store.ts';
import type { SecretHasher } from './hasher.ts';
import { parseInput } from './key-input.ts';
import { newId } from './token.ts';

export const PASSWORD_MIN_LENGTH = 12;

/** A new administrator: an email address and a password of 12–1024 characters. */
export const AdminUserInputSchema = z.strictObject({
  email: z.email('expected an email address').max(254),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `the password needs at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(1024),
});
export type AdminUserInput = z.infer<typeof AdminUserInputSchema>;

/** An administrator as shown: never the password hash. */
export type PublicAdminUser = Omit<AdminUser, 'passwordHash'>;

/** Creates an administrator with an argon2id password hash; 409 CONFLICT when the email is taken (any case). */
export async function createAdminUser(
  deps: { store: KeyStore; hasher: SecretHasher; clock: () => number },
  request: AdminUserInput,
): Promise<PublicAdminUser> {
  const input = parseInput(AdminUserInputSchema, request);
  const user: AdminUser = {
    id: newId('adm'),
    email: input.email,
    passwordHash: await deps.hasher.hash(input.password),
    createdAt: new Date(deps.clock()).toISOString(),
  };
  if (!(await deps.store.createAdmin(user))) {
    throw new GatewayError('CONFLICT', `An administrator with the email ${input.email} already exists.`);
  }
  return { id: user.id, email: user.email, createdAt: user.createdAt };
}
