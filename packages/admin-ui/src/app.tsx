import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type Problem, request, setCsrfToken, setSessionEndedHandler } from './api.ts';
import { Link } from './components/link.tsx';
import { ProblemView, toProblem } from './components/problem-view.tsx';
import { AppContext, type AppContextValue } from './context.ts';
import { ActivityPage } from './pages/activity-page.tsx';
import { CreateKeyPage } from './pages/create-key-page.tsx';
import { KeyPage } from './pages/key-page.tsx';
import { KeysPage } from './pages/keys-page.tsx';
import { LoginPage } from './pages/login-page.tsx';
import { NotFoundPage } from './pages/not-found-page.tsx';
import { type Match, matchRoute, useRoute } from './router.ts';
import type { Session } from './types.ts';

type Phase = 'loading' | 'anonymous' | 'ready';

function renderPage(match: Match) {
  switch (match.page) {
    case 'keys':
      return <KeysPage />;
    case 'create':
      return <CreateKeyPage />;
    case 'key':
      return <KeyPage key={match.id} id={match.id} />;
    case 'activity':
      return <ActivityPage />;
    default:
      return <NotFoundPage />;
  }
}

/** The admin interface: the login when there is no session, else the layout with the routed page. */
export function App() {
  const [phase, setPhase] = useState<Phase>('loading');
  const [session, setSession] = useState<Session | null>(null);
  const [loginMessage, setLoginMessage] = useState<string | null>(null);
  const [startProblem, setStartProblem] = useState<Problem | null>(null);
  const [notice, setNotice] = useState('');
  const noticeTimer = useRef<number | undefined>(undefined);
  const route = useRoute();

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
        const problem = toProblem(error);
        if (problem.code !== 'ADMIN_SESSION_REQUIRED') setStartProblem(problem);
        setPhase('anonymous');
      });
    return () => setSessionEndedHandler(null);
  }, [endSession, startSession]);

  const notify = useCallback((message: string) => {
    setNotice(message);
    window.clearTimeout(noticeTimer.current);
    noticeTimer.current = window.setTimeout(() => setNotice(''), 10_000);
  }, []);

  const logout = async () => {
    try {
      await request('DELETE', '/session');
      endSession('You have logged out.');
    } catch (error) {
      setStartProblem(toProblem(error));
    }
  };

  const context = useMemo<AppContextValue | null>(
    () => (session ? { session, notify } : null),
    [session, notify],
  );
  const match = matchRoute(route);

  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">
          keygate <span class="brand-sub">admin</span>
        </span>
        {context ? (
          <>
            <nav aria-label="Main" class="main-nav">
              <Link to="/" current={match.page === 'keys' || match.page === 'key'}>
                Keys
              </Link>
              <Link to="/keys/new" current={match.page === 'create'}>
                New key
              </Link>
              <Link to="/activity" current={match.page === 'activity'}>
                Activity log
              </Link>
            </nav>
            <div class="user">
              <span class="user-email">{context.session.user.email}</span>
              <button type="button" class="button-quiet" onClick={logout}>
                Log out
              </button>
            </div>
          </>
        ) : null}
      </header>
      <div class="notice" role="status" aria-live="polite">
        {notice}
      </div>
      <main id="main" tabIndex={-1}>
        <ProblemView problem={startProblem} />
        {phase === 'loading' ? <p class="muted">Loading…</p> : null}
        {phase === 'anonymous' ? <LoginPage message={loginMessage} onLogin={startSession} /> : null}
        {phase === 'ready' && context ? (
          <AppContext.Provider value={context}>{renderPage(match)}</AppContext.Provider>
        ) : null}
      </main>
    </>
  );
}
