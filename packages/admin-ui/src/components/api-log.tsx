import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { formatMs, formatTime } from '../format.ts';
import { usePaged } from '../hooks.ts';
import type { ApiLogEntry, Page, PublicSecret } from '../types.ts';
import { ProblemView } from './problem-view.tsx';

const PAGE_SIZE = 25;

/** One row per logged call: time, method and path, status, latency, secret prefix, client IP. */
function LogTable(props: { entries: ApiLogEntry[]; prefixOf: (secretId: string) => string }) {
  return (
    <div class="table-wrap">
      <table class="log-table">
        <caption class="visually-hidden">API log</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Request</th>
            <th scope="col">Status</th>
            <th scope="col">Latency</th>
            <th scope="col">Secret</th>
            <th scope="col">Client IP</th>
          </tr>
        </thead>
        <tbody>
          {props.entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <time dateTime={entry.at}>{formatTime(entry.at)}</time>
              </td>
              <td>
                <code>
                  {entry.method} {entry.path}
                </code>
              </td>
              <td class={entry.status >= 400 ? 'status-error num' : 'num'}>{entry.status}</td>
              <td class="num">{formatMs(entry.latencyMs)}</td>
              <td>
                <code>{props.prefixOf(entry.secretId)}</code>
              </td>
              <td>{entry.clientIp}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The key's API log, newest first, optionally for one secret; "Load older" follows the cursor. */
export function ApiLog(props: { keyId: string; secrets: PublicSecret[]; refresh: number }) {
  const [secretId, setSecretId] = useState('');
  const paged = usePaged<ApiLogEntry>(
    (cursor) =>
      request<Page<ApiLogEntry>>('GET', `/keys/${props.keyId}/logs`, {
        query: { secretId, limit: PAGE_SIZE, cursor },
      }),
    [props.keyId, secretId, props.refresh],
  );
  const prefixOf = (id: string) => props.secrets.find((s) => s.id === id)?.prefix ?? id;
  return (
    <div class="paged">
      <div class="toolbar">
        <div class="field">
          <label for="log-secret">Secret</label>
          <select id="log-secret" value={secretId} onChange={(e) => setSecretId(e.currentTarget.value)}>
            <option value="">All secrets</option>
            {props.secrets.map((s) => (
              <option key={s.id} value={s.id}>
                {s.prefix}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="button-quiet" onClick={() => void paged.reload()}>
          Refresh log
        </button>
      </div>
      <ProblemView problem={paged.problem} />
      {paged.items.length === 0 && !paged.loading ? <p class="muted">No calls logged.</p> : null}
      {paged.items.length > 0 ? <LogTable entries={paged.items} prefixOf={prefixOf} /> : null}
      <p class="paging" aria-live="polite">
        {paged.loading ? 'Loading…' : `${paged.items.length} shown`}
        {paged.nextCursor ? (
          <button
            type="button"
            class="button-quiet"
            onClick={() => void paged.loadMore()}
            disabled={paged.loading}
          >
            Load older calls
          </button>
        ) : null}
      </p>
    </div>
  );
}
