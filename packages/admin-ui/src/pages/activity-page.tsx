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

/** The filter form: edits a draft; Apply makes it the query, Clear empties both. */
function ActivityFilters(props: {
  draft: Filters;
  onChange: (patch: Partial<Filters>) => void;
  onApply: () => void;
  onClear: () => void;
}) {
  return (
    <form
      class="filters"
      aria-label="Filter activity"
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply();
      }}
    >
      <div class="field">
        <label for="activity-key">Key id</label>
        <input
          id="activity-key"
          value={props.draft.keyId}
          placeholder="key_…"
          onInput={(e) => props.onChange({ keyId: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="activity-environment">Environment</label>
        <select
          id="activity-environment"
          value={props.draft.environment}
          onChange={(e) => props.onChange({ environment: e.currentTarget.value })}
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
          value={props.draft.action}
          onChange={(e) => props.onChange({ action: e.currentTarget.value })}
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
          value={props.draft.fromDay}
          onInput={(e) => props.onChange({ fromDay: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="activity-to">To (UTC day, inclusive)</label>
        <input
          id="activity-to"
          type="date"
          value={props.draft.toDay}
          onInput={(e) => props.onChange({ toDay: e.currentTarget.value })}
        />
      </div>
      <button type="submit" class="button-primary">
        Apply filters
      </button>
      <button type="button" class="button-quiet" onClick={props.onClear}>
        Clear
      </button>
    </form>
  );
}

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
      <ActivityFilters
        draft={draft}
        onChange={set}
        onApply={() => setFilters({ ...draft })}
        onClear={() => {
          setDraft(EMPTY);
          setFilters(EMPTY);
        }}
      />
      <ActivityTable paged={paged} showKey caption="Activity log" />
    </section>
  );
}
