import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { formatMs, formatTime } from '../format.ts';
import { usePaged } from '../hooks.ts';
import type { ApiLogEntry, LoggedBody, Page, PublicSecret } from '../types.ts';
import { DataTable } from './data-table.tsx';
import { SelectField } from './form-fields.tsx';
import { PagedView } from './paged-view.tsx';

const PAGE_SIZE = 25;
const LOG_COLUMNS = ['Time', 'Request', 'Status', 'Latency', 'Secret', 'Client IP', 'Trace', 'Bodies'];

/** One kept body: its type, and its text (cut at 16 KiB, secrets redacted by the gateway). */
function BodyView(props: { label: string; body: LoggedBody | null }) {
  const { body } = props;
  return (
    <div class="logged-body">
      <h4>
        {props.label}
        {body ? <span class="muted"> {body.contentType}</span> : null}
        {body?.truncated ? <span class="muted"> (cut at 16 KiB)</span> : null}
      </h4>
      {body ? <pre>{body.text}</pre> : <p class="muted">No JSON or text body.</p>}
    </div>
  );
}

/** A test key's bodies (the sandbox), folded away; live keys keep none. */
function BodiesCell(props: { entry: ApiLogEntry }) {
  const { bodies } = props.entry;
  if (!bodies) return <span class="muted">—</span>;
  return (
    <details class="log-bodies">
      <summary>Bodies</summary>
      <BodyView label="Request" body={bodies.request} />
      <BodyView label="Response" body={bodies.response} />
    </details>
  );
}

/** The call's trace id (when the gateway traced it), to look the call up in the tracing backend. */
function TraceCell(props: { traceId: string | undefined }) {
  if (props.traceId === undefined) return <span class="muted">—</span>;
  return <code class="trace-id">{props.traceId}</code>;
}

/** One row per logged call: time, method and path, status, latency, secret prefix, client IP, trace id, bodies (test keys). */
function LogTable(props: { entries: ApiLogEntry[]; prefixOf: (secretId: string) => string }) {
  return (
    <DataTable class="log-table" caption="API log" columns={LOG_COLUMNS}>
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
          <td>
            <TraceCell traceId={entry.traceId} />
          </td>
          <td>
            <BodiesCell entry={entry} />
          </td>
        </tr>
      ))}
    </DataTable>
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
  const toolbar = (
    <div class="toolbar">
      <SelectField
        id="log-secret"
        label="Secret"
        value={secretId}
        emptyLabel="All secrets"
        options={props.secrets.map((s) => s.id)}
        labelOf={prefixOf}
        onChange={setSecretId}
      />
      <button type="button" class="button-quiet" onClick={() => void paged.reload()}>
        Refresh log
      </button>
    </div>
  );
  return (
    <PagedView paged={paged} toolbar={toolbar} empty="No calls logged." loadMoreLabel="Load older calls">
      <LogTable entries={paged.items} prefixOf={prefixOf} />
    </PagedView>
  );
}
