import type { PublicKey } from '../types.ts';

/** The key's status as a badge: active, revoked, expired, rotating. */
export function StatusBadge(props: { apiKey: PublicKey }) {
  const { apiKey } = props;
  if (apiKey.status === 'revoked') return <span class="badge badge-revoked">revoked</span>;
  if (apiKey.expired) return <span class="badge badge-expired">expired</span>;
  return (
    <>
      <span class="badge badge-active">active</span>
      {apiKey.rotation.inProgress ? <span class="badge badge-rotating">rotating</span> : null}
    </>
  );
}

/** The expiry date with a reminder badge when it is near, or an expired badge. */
export function ExpiryCell(props: { apiKey: PublicKey }) {
  const { apiKey } = props;
  if (!apiKey.expiresAt) return <span class="muted">no expiry</span>;
  return (
    <span class="expiry">
      <time dateTime={apiKey.expiresAt}>{apiKey.expiresAt}</time>{' '}
      {apiKey.expired ? (
        <span class="badge badge-expired">expired</span>
      ) : apiKey.expiryReminder ? (
        <span class="badge badge-reminder">
          {apiKey.expiryReminder.daysLeft === 1
            ? 'last day'
            : `expires in ${apiKey.expiryReminder.daysLeft} days`}
        </span>
      ) : null}
    </span>
  );
}

/** Values as code chips, or `none` in muted text when there are none. */
function CodeChips(props: { values: string[]; none: string }) {
  if (props.values.length === 0) return <span class="muted">{props.none}</span>;
  return (
    <ul class="chips">
      {props.values.map((value) => (
        <li key={value}>
          <code>{value}</code>
        </li>
      ))}
    </ul>
  );
}

/** A list of scopes as code chips. */
export function ScopeList(props: { scopes: string[] }) {
  return <CodeChips values={props.scopes} none="none" />;
}

/** The IP allowlist, or "any address". */
export function IpList(props: { entries: string[] }) {
  return <CodeChips values={props.entries} none="any address" />;
}
