import type { ComponentChildren } from 'preact';
import type { Paged } from '../hooks.ts';
import { ProblemView } from './problem-view.tsx';

/**
 * A cursor-paged list: its toolbar, the last problem, a line when there is nothing, the items
 * (`children`, shown once there are some) and a count with a button that loads the next page.
 */
export function PagedView<T>(props: {
  paged: Paged<T>;
  toolbar?: ComponentChildren;
  empty: string;
  loadMoreLabel: string;
  children: ComponentChildren;
}) {
  const { paged } = props;
  return (
    <div class="paged">
      {props.toolbar}
      <ProblemView problem={paged.problem} />
      {paged.items.length === 0 && !paged.loading ? <p class="muted">{props.empty}</p> : null}
      {paged.items.length > 0 ? props.children : null}
      <p class="paging" aria-live="polite">
        {paged.loading ? 'Loading…' : `${paged.items.length} shown`}
        {paged.nextCursor ? (
          <button
            type="button"
            class="button-quiet"
            onClick={() => void paged.loadMore()}
            disabled={paged.loading}
          >
            {props.loadMoreLabel}
          </button>
        ) : null}
      </p>
    </div>
  );
}
