import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type Problem, request, setCsrfToken, setSessionEndedHandler } from './api.ts';
import { toProblem } from './components/problem-view.tsx';
import type { Session } from './types.ts';

/** Where the app is: asking the server for a session, showing the login, or logged in. */
export type Phase = 'loading' | 'anonymous' | 'ready';

/**
 * The administrator session: looked up once on load, started by the login, ended by logout or by
 * any API answer saying it ended (then the login shows `loginMessage`). `problem` is a failure
 * other than "no session" while starting or logging out.
 */
export function useSession() {
  const [phase, setPhase] = useState<Phase>('loading');
  const [session, setSession] = useState<Session | null>(null);
  const [loginMessage, setLoginMessage] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);

  const endSession = useCallback((message: string) => {
    setCsrfToken(null);
    setSession(null);
    setLoginMessage(message);
    setPhase('anonymous');
  }, []);

  const startSession = useCallback((next: Session) => {
    setCsrfToken(next.csrfToken);
    setSession(next);
    setLoginMessage(null);
    setPhase('ready');
  }, []);

  useEffect(() => {
    setSessionEndedHandler(() => endSession('Your session ended. Log in again to continue.'));
    request<Session>('GET', '/session', { reportSessionEnd: false })
      .then(startSession)
      .catch((error: unknown) => {
        const found = toProblem(error);
        if (found.code !== 'ADMIN_SESSION_REQUIRED') setProblem(found);
        setPhase('anonymous');
      });
    return () => setSessionEndedHandler(null);
  }, [endSession, startSession]);

  const logout = async () => {
    try {
      await request('DELETE', '/session');
      endSession('You have logged out.');
    } catch (error) {
      setProblem(toProblem(error));
    }
  };

  return { phase, session, loginMessage, problem, startSession, logout };
}

/** A short notice for the live region: shown for 10 seconds, replaced by the next one. */
export function useNotice(): [string, (message: string) => void] {
  const [notice, setNotice] = useState('');
  const timer = useRef<number | undefined>(undefined);
  const notify = useCallback((message: string) => {
    setNotice(message);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setNotice(''), 10_000);
  }, []);
  return [notice, notify];
}
