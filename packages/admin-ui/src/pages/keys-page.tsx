import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { DataTable } from '../components/data-table.tsx';
import { SelectField } from '../components/form-fields.tsx';
import { ExpiryCell, IpList, ScopeList, StatusBadge } from '../components/key-badges.tsx';
import { Link } from '../components/link.tsx';
import { PageHeading } from '../components/page-heading.tsx';
import { ProblemView } from '../components/problem-view.tsx';
import { RotationSummary } from '../components/rotation-summary.tsx';
import { formatAgo, formatCount, formatTime } from '../format.ts';
import { useLoad } from '../hooks.ts';
import { ENVIRONMENTS, type PublicKey } from '../types.ts';

const KEY_COLUMNS = [
  'Name',
  'Env',
  'Prefix',
  'Scopes',
  'IP allowlist',
  'Expiry',
  'Rate limit',
  'Last call',
  'Status',
];
/** The key columns and the actions column: the rotation row spans them all. */
const COLUMNS = KEY_COLUMNS.length + 1;
const STATUSES = ['active', 'revoked'];

function KeyRows(props: { apiKey: PublicKey }) {
  const { apiKey } = props;
  return (
    <>
      <tr class={apiKey.rotation.inProgress ? 'key-row has-rotation' : 'key-row'}>
        <th scope="row">
          <Link to={`/keys/${apiKey.id}`}>{apiKey.name}</Link>
        </th>
        <td>
          <span class={`env env-${apiKey.environment}`}>{apiKey.environment}</span>
        </td>
        <td>
          <code>{apiKey.prefix}</code>
        </td>
        <td>
          <ScopeList scopes={apiKey.scopes} />
        </td>
        <td>
          <IpList entries={apiKey.ipAllowlist} />
        </td>
        <td>
          <ExpiryCell apiKey={apiKey} />
        </td>
        <td class="num">{formatCount(apiKey.rateLimit.perMinute)}/min</td>
        <td title={formatTime(apiKey.lastCallAt)}>{formatAgo(apiKey.lastCallAt)}</td>
        <td>
          <StatusBadge apiKey={apiKey} />
        </td>
        <td>
          <Link to={`/keys/${apiKey.id}`} class="button-link">
            Open<span class="visually-hidden"> {apiKey.name}</span>
          </Link>
        </td>
      </tr>
      {apiKey.rotation.inProgress ? (
        <tr class="rotation-row">
          <td colSpan={COLUMNS}>
            <span class="visually-hidden">Rotation of {apiKey.name}: </span>
            <RotationSummary apiKey={apiKey} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** The keys, one row each (plus a rotation row for keys being rotated). */
function KeysTable(props: { items: PublicKey[] }) {
  return (
    <DataTable class="keys-table" caption="API keys" columns={KEY_COLUMNS} actions>
      {props.items.map((apiKey) => (
        <KeyRows key={apiKey.id} apiKey={apiKey} />
      ))}
    </DataTable>
  );
}

/** Every key of both environments, filterable by environment and status. */
export function KeysPage() {
  const [environment, setEnvironment] = useState('');
  const [status, setStatus] = useState('');
  const keys = useLoad(
    () => request<{ items: PublicKey[] }>('GET', '/keys', { query: { environment, status } }),
    [environment, status],
  );
  const items = keys.data?.items ?? [];

  return (
    <section>
      <div class="page-head">
        <PageHeading title="API keys" />
        <Link to="/keys/new" class="button-primary">
          New key
        </Link>
      </div>
      <form class="filters" aria-label="Filter keys" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          id="filter-environment"
          label="Environment"
          value={environment}
          emptyLabel="All"
          options={ENVIRONMENTS}
          onChange={setEnvironment}
        />
        <SelectField
          id="filter-status"
          label="Status"
          value={status}
          emptyLabel="All"
          options={STATUSES}
          onChange={setStatus}
        />
        <button type="button" class="button-quiet" onClick={() => void keys.reload()}>
          Refresh
        </button>
      </form>
      <ProblemView problem={keys.problem} />
      <p class="muted" aria-live="polite">
        {keys.loading ? 'Loading keys…' : `${items.length} ${items.length === 1 ? 'key' : 'keys'}`}
      </p>
      {items.length > 0 ? <KeysTable items={items} /> : null}
    </section>
  );
}
