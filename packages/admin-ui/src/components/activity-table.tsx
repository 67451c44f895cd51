import { formatTime } from '../format.ts';
import type { Paged } from '../hooks.ts';
import type { ActivityEntry } from '../types.ts';
import { DataTable } from './data-table.tsx';
import { Link } from './link.tsx';
import { PagedView } from './paged-view.tsx';

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
  const columns = [
    'Time',
    'Action',
    ...(props.showKey ? ['Key'] : []),
    'Env',
    'Actor',
    'Source IP',
    'Before → after',
  ];
  return (
    <PagedView paged={paged} empty="No activity." loadMoreLabel="Load older entries">
      <DataTable class="activity-table" caption={props.caption} columns={columns}>
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
                {entry.keyId === null ? (
                  <span class="muted">—</span>
                ) : (
                  <Link to={`/keys/${entry.keyId}`}>{entry.keyId}</Link>
                )}
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
      </DataTable>
    </PagedView>
  );
}
