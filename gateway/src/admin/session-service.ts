import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { GatewayError } from '../errors.ts';
import type { SecretHasher } from '../keys/hasher.ts';
import type { AdminSession, AdminUser } from '../model/model.ts';
import type { KeyStore } from '../store/store.ts';
import { createLoginThrottle } from './login-throttle.ts';

/** The session service's store, hasher, clock, logger and the admin settings from config. */
export interface SessionServiceOptions {
  store: KeyStore;
  hasher: SecretHasher;
  /** Epoch ms. */
  clock: () => number;
  logger: Pick<Logger, 'info' | 'warn'>;
  idleMinutes: number;
  maxHours: number;
  maxLoginFailures: number;
  loginWindowMinutes: number;
}

/** A session just opened: the cookie token (shown to the browser only) and the stored session. */
export interface StartedSession {
  token: string;
  session: AdminSession;
}

/** Administrator login, sessions and logout; no HTTP here (see admin-api-router.ts). */
export interface SessionService {
  /** Checks the throttle, then the password (argon2id); opens a session or throws INVALID_CREDENTIALS / LOGIN_THROTTLED. */
  login(credentials: { email: string; password: string }, clientIp: string): Promise<StartedSession>;
  /** The live session of a cookie token; null when unknown, ended (then deleted) or malformed. Changes nothing else. */
  find(token: string): Promise<AdminSession | null>;
  /** Slides the session's idle expiry forward (never past its absolute end); null when it ended meanwhile. */
  touch(session: AdminSession): Promise<AdminSession | null>;
  /** Ends the token's session in the store, for every gateway instance. */
  logout(token: string): Promise<void>;
}

/** Password checks one instance runs at once (libuv's default thread pool has 4 threads). */
export const MAX_CONCURRENT_LOGINS = 4;

/** A cookie token: 256 random bits, base64url (43 characters). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The store key of a session: hex SHA-256 of its cookie token. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The first 12 hex digits of the SHA-256 of a lower-cased email: enough to correlate attempts, not to read them. */
export function emailDigest(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 12);
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A session opened now for `user`: idle expiry after `idleMs`, never past the absolute `maxMs`. */
function newSession(
  tokenHash: string,
  user: AdminUser,
  now: number,
  limits: { idleMs: number; maxMs: number },
): AdminSession {
  return {
    tokenHash,
    userId: user.id,
    email: user.email,
    csrfToken: randomToken(),
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: now + Math.min(limits.idleMs, limits.maxMs),
    expiresAt: now + limits.maxMs,
  };
}

/** Builds the session service; all state lives in the store, shared by every instance. */
export function createSessionService(options: SessionServiceOptions): SessionService {
  const { store, hasher, clock, logger } = options;
  const idleMs = options.idleMinutes * 60_000;
  const maxMs = options.maxHours * 3_600_000;
  const throttle = createLoginThrottle({
    store,
    clock,
    maxFailures: options.maxLoginFailures,
    windowMs: options.loginWindowMinutes * 60_000,
    maxConcurrent: MAX_CONCURRENT_LOGINS,
  });
  // An unknown email is checked against this hash, so it costs the same argon2 work as a wrong password.
  const dummyHash = hasher.hash(randomToken());
  dummyHash.catch(() => undefined);

  async function open(user: AdminUser): Promise<StartedSession> {
    const token = randomToken();
    const session = newSession(hashSessionToken(token), user, clock(), { idleMs, maxMs });
    await store.createAdminSession(session);
    return { token, session };
  }

  /** The account the credentials belong to, after the throttle and one argon2 check; else throws (and logs). */
  async function checkCredentials(email: string, password: string, clientIp: string): Promise<AdminUser> {
    const attempt = await throttle.begin(email, clientIp);
    let matches = false;
    let user: AdminUser | null = null;
    try {
      user = await store.findAdminByEmail(email);
      matches = (await hasher.verify(user?.passwordHash ?? (await dummyHash), password)) && user !== null;
    } finally {
      await attempt.finish(matches);
    }
    if (user && matches) return user;
    // An unknown "email" may be a password typed into the wrong field: log only a digest of it.
    const who = user ? { email: user.email } : { emailSha256: emailDigest(email) };
    logger.warn(
      { ...who, clientIp, reason: user ? 'wrong_password' : 'unknown_email' },
      'admin login failed',
    );
    throw new GatewayError('INVALID_CREDENTIALS', 'The email or the password is wrong.');
  }

  return {
    async login({ email, password }, clientIp) {
      const user = await checkCredentials(email, password, clientIp);
      await store.pruneAdminSessions(clock());
      const started = await open(user);
      logger.info({ email: user.email, userId: user.id, clientIp }, 'admin logged in');
      return started;
    },
    async find(token) {
      if (!TOKEN_PATTERN.test(token)) return null;
      const session = await store.getAdminSession(hashSessionToken(token));
      if (!session) return null;
      const now = clock();
      if (now < session.idleExpiresAt && now < session.expiresAt) return session;
      await store.deleteAdminSession(session.tokenHash);
      return null;
    },
    async touch(session) {
      const now = clock();
      const idleExpiresAt = Math.min(now + idleMs, session.expiresAt);
      if (!(await store.touchAdminSession(session.tokenHash, now, idleExpiresAt))) return null;
      return { ...session, lastSeenAt: now, idleExpiresAt };
    },
    async logout(token) {
      if (TOKEN_PATTERN.test(token)) await store.deleteAdminSession(hashSessionToken(token));
    },
  };
}
