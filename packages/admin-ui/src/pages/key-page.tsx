import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { ActivityTable } from '../components/activity-table.tsx';
import { AnalyticsPanel } from '../components/analytics-panel.tsx';
import { ApiLog } from '../components/api-log.tsx';
import { ExpiryCell, IpList, ScopeList, StatusBadge } from '../components/key-badges.tsx';
import { KeyBudgetSection } from '../components/key-budget-section.tsx';
import { Link } from '../components/link.tsx';
import { PageHeading } from '../components/page-heading.tsx';
import { ProblemView } from '../components/problem-view.tsx';
import { RevokeSection } from '../components/revoke-section.tsx';
import { ScopesEditor } from '../components/scopes-editor.tsx';
import { SecretsPanel } from '../components/secrets-panel.tsx';
import { UsagePanel } from '../components/usage-panel.tsx';
import { formatAgo, formatCount, formatTime } from '../format.ts';
import { useLoad, usePaged } from '../hooks.ts';
import type { ActivityEntry, Page, PublicKey } from '../types.ts';

function Details(props: { apiKey: PublicKey }) {
  const { apiKey } = props;
  return (
    <dl class="details">
      <dt>Id</dt>
      <dd>
        <code>{apiKey.id}</code>
      </dd>
      <dt>Environment</dt>
      <dd>
        <span class={`env env-${apiKey.environment}`}>{apiKey.environment}</span>
      </dd>
      <dt>Prefix</dt>
      <dd>
        <code>{apiKey.prefix}</code>
      </dd>
      <dt>Scopes</dt>
      <dd>
        <ScopeList scopes={apiKey.scopes} />
      </dd>
      <dt>IP allowlist</dt>
      <dd>
        <IpList entries={apiKey.ipAllowlist} />
      </dd>
      <dt>Expiry</dt>
      <dd>
        <ExpiryCell apiKey={apiKey} />
      </dd>
      <dt>Rate limit</dt>
      <dd>{formatCount(apiKey.rateLimit.perMinute)} requests per minute</dd>
      <dt>Last call</dt>
      <dd>
        {formatAgo(apiKey.lastCallAt)} <span class="muted">({formatTime(apiKey.lastCallAt)})</span>
      </dd>
      <dt>Created</dt>
      <dd>{formatTime(apiKey.createdAt)}</dd>
      <dt>Updated</dt>
      <dd>{formatTime(apiKey.updatedAt)}</dd>
      {apiKey.revokedAt ? (
        <>
          <dt>Revoked</dt>
          <dd>{formatTime(apiKey.revokedAt)}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** One key: details, secrets and rotation, scopes, usage charts, API log, activity, revoke. */
export function KeyPage(props: { id: string }) {
  const key = useLoad(() => request<PublicKey>('GET', `/keys/${props.id}`), [props.id]);
  const [changes, setChanges] = useState(0);
  const activity = usePaged<ActivityEntry>(
    (cursor) =>
      request<Page<ActivityEntry>>('GET', `/keys/${props.id}/activity`, { query: { limit: 20, cursor } }),
    [props.id, changes],
  );
  const changed = (next: PublicKey) => {
    key.set(next);
    setChanges((n) => n + 1);
  };
  const apiKey = key.data;

  if (!apiKey) {
    return (
      <section>
        <PageHeading title="Key" />
        <ProblemView problem={key.problem} />
        {key.loading ? <p class="muted">Loading key…</p> : null}
        <p>
          <Link to="/">Back to all keys</Link>
        </p>
      </section>
    );
  }
  const active = apiKey.status === 'active';
  return (
    <article class="key-page">
      <p class="breadcrumb">
        <Link to="/">All keys</Link> / <code>{apiKey.prefix}</code>
      </p>
      <div class="page-head">
        <PageHeading title={`Key ${apiKey.name}`}>
          {apiKey.name} <StatusBadge apiKey={apiKey} />
        </PageHeading>
        <button type="button" class="button-quiet" onClick={() => void key.reload()}>
          Reload
        </button>
      </div>
      <ProblemView problem={key.problem} />
      <Details apiKey={apiKey} />
      <section aria-labelledby="secrets-heading">
        <h2 id="secrets-heading">Secrets and rotation</h2>
        <SecretsPanel apiKey={apiKey} onChange={changed} />
      </section>
      {active ? (
        <section aria-labelledby="scopes-heading">
          <h2 id="scopes-heading">Edit scopes</h2>
          <ScopesEditor key={apiKey.version} apiKey={apiKey} onChange={changed} />
        </section>
      ) : null}
      <KeyBudgetSection apiKey={apiKey} onChange={changed} />
      <section aria-labelledby="outcomes-heading">
        <h2 id="outcomes-heading">Calls by outcome</h2>
        <AnalyticsPanel subject={`/keys/${apiKey.id}`} refresh={changes} />
      </section>
      <section aria-labelledby="usage-heading">
        <h2 id="usage-heading">Usage</h2>
        <UsagePanel keyId={apiKey.id} refresh={changes} />
      </section>
      <section aria-labelledby="log-heading">
        <h2 id="log-heading">API log</h2>
        <ApiLog keyId={apiKey.id} secrets={apiKey.rotation.secrets} refresh={changes} />
      </section>
      <section aria-labelledby="activity-heading">
        <h2 id="activity-heading">Activity</h2>
        <ActivityTable paged={activity} showKey={false} caption={`Activity of ${apiKey.name}`} />
      </section>
      <RevokeSection apiKey={apiKey} onRevoked={changed} />
    </article>
  );
}
