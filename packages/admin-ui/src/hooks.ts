import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Problem } from './api.ts';
import { toProblem } from './components/problem-view.tsx';

/** Data loaded from the API: the last answer, the last problem, and a way to load again. */
export interface Loaded<T> {
  data: T | null;
  problem: Problem | null;
  loading: boolean;
  reload: () => Promise<void>;
  set: (data: T) => void;
}

/** Loads `load()` now and whenever `deps` change; a newer load wins over an older one. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const next = await load();
      if (mine !== generation.current) return;
      setData(next);
      setProblem(null);
    } catch (error) {
      if (mine === generation.current) setProblem(toProblem(error));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, problem, loading, reload, set: setData };
}

/** A cursor-paged list: the pages loaded so far and a way to load the next one. */
export interface Paged<T> {
  items: T[];
  nextCursor: string | null;
  problem: Problem | null;
  loading: boolean;
  loadMore: () => Promise<void>;
  reload: () => Promise<void>;
}

/** Loads the first page whenever `deps` change; `loadMore` appends the page after `nextCursor`. */
export function usePaged<T>(
  loadPage: (cursor: string | null) => Promise<{ items: T[]; nextCursor: string | null }>,
  deps: unknown[],
): Paged<T> {
  const [items, setItems] = useState<T[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);

  const fetchInto = async (cursor: string | null, append: boolean) => {
    const mine = append ? generation.current : ++generation.current;
    setLoading(true);
    try {
      const page = await loadPage(cursor);
      if (mine !== generation.current) return;
      setItems((current) => (append ? [...current, ...page.items] : page.items));
      setNextCursor(page.nextCursor);
      setProblem(null);
    } catch (error) {
      if (mine === generation.current) setProblem(toProblem(error));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  };
  const reload = useCallback(() => fetchInto(null, false), deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return {
    items,
    nextCursor,
    problem,
    loading,
    reload,
    loadMore: () => (nextCursor ? fetchInto(nextCursor, true) : Promise.resolve()),
  };
}

/** A call the user started: `busy` while it runs, its problem (if it failed) afterwards. */
export interface Action {
  busy: boolean;
  problem: Problem | null;
  setProblem: (problem: Problem | null) => void;
  /** Runs `call` with `busy` set and the last problem cleared; a failure becomes `problem` after `onError`. */
  run: (call: () => Promise<void>, onError?: (problem: Problem) => void) => Promise<void>;
}

/** The busy flag and the problem of a form or button that calls the API. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const run = async (call: () => Promise<void>, onError?: (problem: Problem) => void) => {
    setBusy(true);
    setProblem(null);
    try {
      await call();
    } catch (error) {
      const found = toProblem(error);
      onError?.(found);
      setProblem(found);
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, setProblem, run };
}

/**
 * State for something shown once (a new secret): plain component state, never stored, and dropped
 * when the page is hidden, so a page restored from the back/forward cache does not show it again.
 */
export function useOneTime<T>(): [T | null, (value: T | null) => void] {
  const [value, setValue] = useState<T | null>(null);
  useEffect(() => {
    const drop = () => setValue(null);
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) drop();
    };
    window.addEventListener('pagehide', drop);
    window.addEventListener('pageshow', onShow);
    return () => {
      window.removeEventListener('pagehide', drop);
      window.removeEventListener('pageshow', onShow);
    };
  }, []);
  return [value, setValue];
}
