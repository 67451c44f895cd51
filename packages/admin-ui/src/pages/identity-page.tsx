import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { describePlan } from '../budget-form.ts';
import { effectiveQuotas, type IdentityWithKeys, type Plan } from '../budget-types.ts';
import { AnalyticsPanel } from '../components/analytics-panel.tsx';
import { CreditsLevelForm } from '../components/credits-level-form.tsx';
import { CreditsPanel } from '../components/credits-panel.tsx';
import { DataTable } from '../components/data-table.tsx';
import { StatusBadge } from '../components/key-badges.tsx';
import { Link } from '../components/link.tsx';
import { PageHeading } from '../components/page-heading.tsx';
import { PlanPicker } from '../components/plan-picker.tsx';
import { ProblemView } from '../components/problem-view.tsx';
import { loadPeriodUsage, QuotaBars } from '../components/quota-bars.tsx';
import { UsageOutcomes } from '../components/usage-outcomes.tsx';
import { useApp } from '../context.ts';
import { formatTime } from '../format.ts';
import { useLoad } from '../hooks.ts';
import { currentPeriods } from '../periods.ts';

/** The identity's keys, each linking to its page. */
function IdentityKeys(props: { identity: IdentityWithKeys }) {
  const { keys } = props.identity;
  if (keys.length === 0)
    return <p class="muted">No keys yet. Create one with this identity from the CLI or the API.</p>;
  return (
    <DataTable class="identity-keys" caption="Keys of this identity" columns={['Name', 'Prefix', 'Status']}>
      {keys.map((key) => (
        <tr key={key.id}>
          <th scope="row">
            <Link to={`/keys/${key.id}`}>{key.name}</Link>
          </th>
          <td>
            <code>{key.prefix}</code>
          </td>
          <td>
            <StatusBadge apiKey={key} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** One identity: details, plan, keys, credits, quota bars of the current periods and the month's calls by outcome. */
export function IdentityPage(props: { id: string }) {
  const { notify } = useApp();
  const path = `/identities/${props.id}`;
  const identity = useLoad(() => request<IdentityWithKeys>('GET', path), [path]);
  const plans = useLoad(() => request<{ items: Plan[] }>('GET', '/plans'), []);
  const [refresh, setRefresh] = useState(0);
  const month = currentPeriods().month;
  const usage = useLoad(() => loadPeriodUsage(path, month), [path, month, refresh]);
  const current = identity.data;
  if (!current) {
    return (
      <section>
        <PageHeading title="Identity" />
        <ProblemView problem={identity.problem} />
        {identity.loading ? <p class="muted">Loading identity…</p> : null}
        <p>
          <Link to="/identities">Back to all identities</Link>
        </p>
      </section>
    );
  }
  const allPlans = plans.data?.items ?? [];
  const plan = allPlans.find((p) => p.id === current.planId) ?? null;
  const savePlan = async (planId: string | null) => {
    await request('PATCH', path, { body: { planId } });
    notify(planId ? 'Plan changed: every key of this identity follows from its next call.' : 'Plan removed.');
    await identity.reload();
    setRefresh((n) => n + 1);
  };
  return (
    <article class="identity-page">
      <p class="breadcrumb">
        <Link to="/identities">All identities</Link> / <code>{current.externalId}</code>
      </p>
      <div class="page-head">
        <PageHeading title={`Identity ${current.externalId}`} />
        <button
          type="button"
          class="button-quiet"
          onClick={() => {
            void identity.reload();
            setRefresh((n) => n + 1);
          }}
        >
          Reload
        </button>
      </div>
      <dl class="details">
        <dt>Id</dt>
        <dd>
          <code>{current.id}</code>
        </dd>
        <dt>Environment</dt>
        <dd>
          <span class={`env env-${current.environment}`}>{current.environment}</span>
        </dd>
        <dt>Plan</dt>
        <dd>{plan ? `${plan.name}: ${describePlan(plan)}` : (current.planId ?? 'none')}</dd>
        <dt>Metadata</dt>
        <dd>{Object.keys(current.meta).length > 0 ? <code>{JSON.stringify(current.meta)}</code> : 'none'}</dd>
        <dt>Created</dt>
        <dd>{formatTime(current.createdAt)}</dd>
      </dl>
      <section aria-labelledby="identity-plan-heading">
        <h2 id="identity-plan-heading">Plan</h2>
        <PlanPicker
          key={`${current.version}`}
          id="identity-plan-choice"
          label="Plan of this identity"
          plans={allPlans}
          planId={current.planId}
          save={savePlan}
        />
      </section>
      <section aria-labelledby="identity-keys-heading">
        <h2 id="identity-keys-heading">Keys</h2>
        <IdentityKeys identity={current} />
      </section>
      <section aria-labelledby="identity-credits-heading">
        <h2 id="identity-credits-heading">Credits</h2>
        <CreditsPanel
          path={path}
          id="identity-credits"
          refresh={refresh}
          notHeld="This identity holds no credits: create it with credits, or give it a plan with a credits refill."
        />
        {current.credits ? (
          <CreditsLevelForm
            key={`${current.version}`}
            path={path}
            id="identity-credits"
            lowAt={current.credits.lowAt}
            onSaved={() => identity.reload()}
          />
        ) : null}
      </section>
      <section aria-labelledby="identity-quotas-heading">
        <h2 id="identity-quotas-heading">Quotas</h2>
        {plans.data || !current.planId ? (
          <QuotaBars
            path={path}
            quotas={effectiveQuotas(plan?.quotas ?? [], current.quotas)}
            refresh={refresh}
          />
        ) : (
          <ProblemView problem={plans.problem} />
        )}
      </section>
      <section aria-labelledby="identity-usage-heading">
        <h2 id="identity-usage-heading">Calls in {month}</h2>
        <ProblemView problem={usage.problem} />
        {usage.data ? (
          <UsageOutcomes
            usage={usage.data}
            caption={`Calls of ${current.externalId} in ${month} by outcome`}
          />
        ) : null}
      </section>
      <section aria-labelledby="outcomes-heading">
        <h2 id="outcomes-heading">Calls by outcome</h2>
        <AnalyticsPanel subject={`/identities/${props.id}`} refresh={0} />
      </section>
    </article>
  );
}
