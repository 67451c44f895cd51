import { formatAgo, formatCount, formatTime } from '../format.ts';
import type { PublicKey, PublicSecret } from '../types.ts';
import { DataTable } from './data-table.tsx';

function secretState(secret: PublicSecret): string {
  if (secret.usable) return secret.closesAt ? 'open (overlap)' : 'open';
  return secret.closedReason ? `closed (${secret.closedReason.replace('_', ' ')})` : 'closed';
}

/** One row per secret: state, dates, calls, last call, and a close button on the old ones. */
export function SecretsTable(props: {
  apiKey: PublicKey;
  /** Ids of the old secrets of a rotation in progress (they get a close button). */
  closable: ReadonlySet<string>;
  busy: boolean;
  onClose: (secret: PublicSecret) => void;
}) {
  const { apiKey } = props;
  return (
    <DataTable
      class="secrets-table"
      caption={`Secrets of ${apiKey.name}`}
      columns={['Secret', 'State', 'Created', 'Closes / closed', 'Calls', 'Last call']}
      actions
    >
      {apiKey.rotation.secrets.map((secret) => (
        <tr key={secret.id} data-secret-prefix={secret.prefix}>
          <th scope="row">
            <code>{secret.prefix}</code>
            {secret.prefix === apiKey.prefix ? <span class="badge">current</span> : null}
          </th>
          <td>{secretState(secret)}</td>
          <td>{formatTime(secret.createdAt)}</td>
          <td>{formatTime(secret.closedAt ?? secret.closesAt)}</td>
          <td class="num secret-calls">{formatCount(secret.callCount)}</td>
          <td title={formatTime(secret.lastCallAt)}>{formatAgo(secret.lastCallAt)}</td>
          <td>
            {props.closable.has(secret.id) ? (
              <button
                type="button"
                class="button-danger-quiet"
                disabled={props.busy}
                onClick={() => props.onClose(secret)}
              >
                Close old secret<span class="visually-hidden"> {secret.prefix}</span>
              </button>
            ) : null}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
