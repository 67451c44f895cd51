import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { ActivityTable } from '../components/activity-table.tsx';
import { PageHeading } from '../components/page-heading.tsx';
import { dayRange } from '../date-range.ts';
import { usePaged } from '../hooks.ts';
import { ACTIVITY_ACTIONS, type ActivityEntry, type Page } from '../types.ts';

interface Filters {
  keyId: string;
  environment: string;
  action: string;
  fromDay: string;
  toDay: string;
}

const EMPTY: Filters = { keyId: '', environment: '', action: '', fromDay: '', toDay: '' };
const PAGE_SIZE = 50;

/** Every key's activity, filtered by key, environment, action and date range. */
export function ActivityPage() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const paged = usePaged<ActivityEntry>(
    (cursor) =>
      request<Page<ActivityEntry>>('GET', '/activity', {
        query: {
          keyId: filters.keyId.trim(),
          environment: filters.environment,
          action: filters.action,
          ...dayRange(filters.fromDay, filters.toDay),
          limit: PAGE_SIZE,
          cursor,
        },
      }),
    [filters],
  );
  const set = (patch: Partial<Filters>) => setDraft((current) => ({ ...current, ...patch }));

  return (
    <section>
      <PageHeading title="Activity log" />
      <form
        class="filters"
        aria-label="Filter activity"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ ...draft });
        }}
      >
        <div class="field">
          <label for="activity-key">Key id</label>
          <input
            id="activity-key"
            value={draft.keyId}
            placeholder="key_…"
            onInput={(e) => set({ keyId: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="activity-environment">Environment</label>
          <select
            id="activity-environment"
            value={draft.environment}
            onChange={(e) => set({ environment: e.currentTarget.value })}
          >
            <option value="">All</option>
            <option value="live">live</option>
            <option value="test">test</option>
          </select>
        </div>
        <div class="field">
          <label for="activity-action">Action</label>
          <select
            id="activity-action"
            value={draft.action}
            onChange={(e) => set({ action: e.currentTarget.value })}
          >
            <option value="">All</option>
            {ACTIVITY_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="activity-from">From (UTC day)</label>
          <input
            id="activity-from"
            type="date"
            value={draft.fromDay}
            onInput={(e) => set({ fromDay: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="activity-to">To (UTC day, inclusive)</label>
          <input
            id="activity-to"
            type="date"
            value={draft.toDay}
            onInput={(e) => set({ toDay: e.currentTarget.value })}
          />
        </div>
        <button type="submit" class="button-primary">
          Apply filters
        </button>
        <button
          type="button"
          class="button-quiet"
          onClick={() => {
            setDraft(EMPTY);
            setFilters(EMPTY);
          }}
        >
          Clear
        </button>
      </form>
      <ActivityTable paged={paged} showKey caption="Activity log" />
    </section>
  );
}
