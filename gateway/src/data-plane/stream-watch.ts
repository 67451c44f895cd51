import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyVerifier } from '../auth/key-verifier.ts';
import { parseBearer } from '../auth/steps.ts';
import type { KeyEvents } from '../model/events.ts';
import type { Call } from './call.ts';

/** How often (ms) every open stream's key is checked again, for changes no event announced (another process). */
export const STREAM_RECHECK_MS = 2_000;

export interface StreamWatch {
  /** Keeps checking the key of a stream route's call while its answer is open; cuts it once the key fails. */
  watch(call: Call, req: IncomingMessage, res: ServerResponse): void;
  /** Stops the timer and the event subscription. */
  close(): void;
}

interface Watched {
  keyId: string;
  check(): void;
}

/**
 * Ends long-lived answers (server-sent events) whose key stopped being valid: the key is verified
 * again, exactly as a new request would verify it (revoked, expired, secret closed), when a key event
 * names it (a change through this gateway, or any instance on Redis) and every STREAM_RECHECK_MS
 * (a change by another process, e.g. the CLI on the SQLite store). A failed check cuts the connection;
 * the client's reconnect is then refused like any call with that key.
 */
export function createStreamWatch(deps: {
  verifier: KeyVerifier;
  events?: KeyEvents;
  recheckMs?: number;
}): StreamWatch {
  const { verifier } = deps;
  const open = new Map<ServerResponse, Watched>();
  const unsubscribe = deps.events?.subscribe((keyId) => {
    for (const watched of open.values()) if (watched.keyId === keyId) watched.check();
  });
  const timer = setInterval(() => {
    for (const watched of open.values()) watched.check();
  }, deps.recheckMs ?? STREAM_RECHECK_MS);
  timer.unref();

  return {
    watch(call, req, res) {
      const header = req.headers.authorization;
      const cut = () => {
        open.delete(res);
        res.destroy();
      };
      const check = () => {
        try {
          const { token, parsed } = parseBearer(header);
          const verifying = verifier.verifyNow(token, parsed, verifier.fingerprintOf(token));
          if (verifying instanceof Promise) verifying.catch(cut);
        } catch {
          cut();
        }
      };
      open.set(res, { keyId: call.principal!.key.id, check });
      res.on('close', () => open.delete(res));
    },
    close() {
      clearInterval(timer);
      unsubscribe?.();
      open.clear();
    },
  };
}
