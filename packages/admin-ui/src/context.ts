import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session } from './types.ts';

/** What every page may use: the session and a way to announce a notice. */
export interface AppContextValue {
  session: Session;
  notify: (message: string) => void;
}

/** Provides AppContextValue to the pages of a logged-in session (null before login). */
export const AppContext = createContext<AppContextValue | null>(null);

/** The app context; pages render only inside a session. */
export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside of a session');
  return value;
}
