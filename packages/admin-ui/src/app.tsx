import { useMemo } from 'preact/hooks';
import { ProblemView } from './components/problem-view.tsx';
import { TopBar } from './components/top-bar.tsx';
import { AppContext, type AppContextValue } from './context.ts';
import { ActivityPage } from './pages/activity-page.tsx';
import { CreateKeyPage } from './pages/create-key-page.tsx';
import { IdentityPage } from './pages/identity-page.tsx';
import { KeyPage } from './pages/key-page.tsx';
import { KeysPage } from './pages/keys-page.tsx';
import { LoginPage } from './pages/login-page.tsx';
import { NotFoundPage } from './pages/not-found-page.tsx';
import { type Match, matchRoute, useRoute } from './router.ts';
import { useNotice, useSession } from './use-session.ts';

function renderPage(match: Match) {
  switch (match.page) {
    case 'keys':
      return <KeysPage />;
    case 'create':
      return <CreateKeyPage />;
    case 'key':
      return <KeyPage key={match.id} id={match.id} />;
    case 'identity':
      return <IdentityPage key={match.id} id={match.id} />;
    case 'activity':
      return <ActivityPage />;
    default:
      return <NotFoundPage />;
  }
}

/** The admin interface: the login when there is no session, else the layout with the routed page. */
export function App() {
  const { phase, session, loginMessage, problem, startSession, logout } = useSession();
  const [notice, notify] = useNotice();
  const match = matchRoute(useRoute());
  const context = useMemo<AppContextValue | null>(
    () => (session ? { session, notify } : null),
    [session, notify],
  );

  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar match={match} email={context ? context.session.user.email : null} onLogout={logout} />
      <div class="notice" role="status" aria-live="polite">
        {notice}
      </div>
      <main id="main" tabIndex={-1}>
        <ProblemView problem={problem} />
        {phase === 'loading' ? <p class="muted">Loading…</p> : null}
        {phase === 'anonymous' ? <LoginPage message={loginMessage} onLogin={startSession} /> : null}
        {phase === 'ready' && context ? (
          <AppContext.Provider value={context}>{renderPage(match)}</AppContext.Provider>
        ) : null}
      </main>
    </>
  );
}
