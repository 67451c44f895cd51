import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { ActivityTable } from '../components/activity-table.tsx';
import { InputField, SelectField } from '../components/form-fields.tsx';
import { PageHeading } from '../components/page-heading.tsx';
import { SandboxReset } from '../components/sandbox-reset.tsx';
import { dayRange } from '../date-range.ts';
import { usePaged } from '../hooks.ts';
import { ACTIVITY_ACTIONS, type ActivityEntry, ENVIRONMENTS, type Page } from '../types.ts';

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
      <InputField
        id="activity-key"
        label="Key id"
        value={props.draft.keyId}
        placeholder="key_…"
        onValue={(keyId) => props.onChange({ keyId })}
      />
      <SelectField
        id="activity-environment"
        label="Environment"
        value={props.draft.environment}
        emptyLabel="All"
        options={ENVIRONMENTS}
        onChange={(environment) => props.onChange({ environment })}
      />
      <SelectField
        id="activity-action"
        label="Action"
        value={props.draft.action}
        emptyLabel="All"
        options={ACTIVITY_ACTIONS}
        onChange={(action) => props.onChange({ action })}
      />
      <InputField
        id="activity-from"
        label="From (UTC day)"
        type="date"
        value={props.draft.fromDay}
        onValue={(fromDay) => props.onChange({ fromDay })}
      />
      <InputField
        id="activity-to"
        label="To (UTC day, inclusive)"
        type="date"
        value={props.draft.toDay}
        onValue={(toDay) => props.onChange({ toDay })}
      />
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
      <SandboxReset onReset={() => void paged.reload()} />
    </section>
  );
}
