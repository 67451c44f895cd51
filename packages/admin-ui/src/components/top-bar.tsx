import type { Match } from '../router.ts';
import { Link } from './link.tsx';

/** The brand, and with a session the main navigation, the administrator's email and Log out. */
export function TopBar(props: { match: Match; email: string | null; onLogout: () => void }) {
  const { match } = props;
  return (
    <header class="topbar">
      <span class="brand">
        keygate <span class="brand-sub">admin</span>
      </span>
      {props.email !== null ? (
        <>
          <nav aria-label="Main" class="main-nav">
            <Link to="/" current={match.page === 'keys' || match.page === 'key'}>
              Keys
            </Link>
            <Link to="/keys/new" current={match.page === 'create'}>
              New key
            </Link>
            <Link to="/plans" current={match.page === 'plans'}>
              Plans
            </Link>
            <Link to="/identities" current={match.page === 'identities' || match.page === 'identity'}>
              Identities
            </Link>
            <Link to="/activity" current={match.page === 'activity'}>
              Activity log
            </Link>
          </nav>
          <div class="user">
            <span class="user-email">{props.email}</span>
            <button type="button" class="button-quiet" onClick={props.onLogout}>
              Log out
            </button>
          </div>
        </>
      ) : null}
    </header>
  );
}
