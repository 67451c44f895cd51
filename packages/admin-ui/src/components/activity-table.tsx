import { formatTime } from '../format.ts';
import type { Paged } from '../hooks.ts';
import type { ActivityEntry } from '../types.ts';
import { Link } from './link.tsx';
import { ProblemView } from './problem-view.tsx';

/** A secret or rate-limit snapshot in words; other objects as JSON. */
function showObject(value: Record<string, unknown>): string {
  if (typeof value.perMinute === 'number') return `${value.perMinute}/min`;
  if (typeof value.prefix === 'string') {
    if (value.closedReason)
      return `${value.prefix} (closed: ${String(value.closedReason).replace('_', ' ')})`;
    if (value.closesAt) return `${value.prefix} (closes ${formatTime(String(value.closesAt))})`;
    return `${value.prefix} (open)`;
  }
  return JSON.stringify(value);
}

function show(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (Array.isArray(value)) return value.length ? value.map(show).join(', ') : 'none';
  if (typeof value === 'object') return showObject(value as Record<string, unknown>);
  return String(value);
}

/** The fields that differ between before and after, as "field: before → after". */
function changes(entry: ActivityEntry): Array<{ field: string; before: string; after: string }> {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: show(before[field]), after: show(after[field]) }));
}

function ChangeCell(props: { entry: ActivityEntry }) {
  const list = changes(props.entry);
  const details = Object.entries(props.entry.details ?? {});
  if (list.length === 0 && details.length === 0) return <span class="muted">—</span>;
  return (
    <ul class="changes">
      {list.map((change) => (
        <li key={change.field}>
          <span class="change-field">{change.field}</span>: <del>{change.before}</del> →{' '}
          <ins>{change.after}</ins>
        </li>
      ))}
      {details.map(([name, value]) => (
        <li key={`detail-${name}`} class="muted">
          {name}: {show(value)}
        </li>
      ))}
    </ul>
  );
}

/** Activity entries: time, action, key, actor, source IP and what changed; "Load more" pages on. */
export function ActivityTable(props: { paged: Paged<ActivityEntry>; showKey: boolean; caption: string }) {
  const { paged } = props;
  return (
    <div class="paged">
      <ProblemView problem={paged.problem} />
      {paged.items.length === 0 && !paged.loading ? <p class="muted">No activity.</p> : null}
      {paged.items.length > 0 ? (
        <div class="table-wrap">
          <table class="activity-table">
            <caption class="visually-hidden">{props.caption}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Action</th>
                {props.showKey ? <th scope="col">Key</th> : null}
                <th scope="col">Env</th>
                <th scope="col">Actor</th>
                <th scope="col">Source IP</th>
                <th scope="col">Before → after</th>
              </tr>
            </thead>
            <tbody>
              {paged.items.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <time dateTime={entry.at}>{formatTime(entry.at)}</time>
                  </td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  {props.showKey ? (
                    <td>
                      <Link to={`/keys/${entry.keyId}`}>{entry.keyId}</Link>
                    </td>
                  ) : null}
                  <td>{entry.environment}</td>
                  <td>
                    {entry.actor.type}
                    <span class="muted"> {entry.actor.id}</span>
                  </td>
                  <td>{entry.sourceIp ?? <span class="muted">—</span>}</td>
                  <td>
                    <ChangeCell entry={entry} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <p class="paging" aria-live="polite">
        {paged.loading ? 'Loading…' : `${paged.items.length} shown`}
        {paged.nextCursor ? (
          <button
            type="button"
            class="button-quiet"
            onClick={() => void paged.loadMore()}
            disabled={paged.loading}
          >
            Load older entries
          </button>
        ) : null}
      </p>
    </div>
  );
}
