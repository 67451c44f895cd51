import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { effectiveQuotas, type Identity, type Plan } from '../budget-types.ts';
import { useApp } from '../context.ts';
import { useAction, useLoad } from '../hooks.ts';
import { currentPeriods } from '../periods.ts';
import type { Page, PublicKey } from '../types.ts';
import { CreditsLevelForm } from './credits-level-form.tsx';
import { CreditsPanel } from './credits-panel.tsx';
import { SelectField } from './form-fields.tsx';
import { Link } from './link.tsx';
import { ProblemView } from './problem-view.tsx';
import { loadPeriodUsage, QuotaBars } from './quota-bars.tsx';
import { UsageOutcomes } from './usage-outcomes.tsx';

/** How many identities the identity select offers (those of the key's environment, newest first). */
const IDENTITY_CHOICES = 500;

/** The key's plan and identity, changed together with one PATCH of the members that differ. */
function PlanAndIdentityForm(props: {
  apiKey: PublicKey;
  plans: Plan[];
  onChange: (key: PublicKey) => void;
}) {
  const { apiKey } = props;
  const { notify } = useApp();
  const [planId, setPlanId] = useState(apiKey.planId ?? '');
  const [identityId, setIdentityId] = useState(apiKey.identityId ?? '');
  const identities = useLoad(
    () =>
      request<Page<Identity>>('GET', '/identities', {
        query: { environment: apiKey.environment, limit: IDENTITY_CHOICES },
      }),
    [apiKey.environment],
  );
  const choices = identities.data?.items ?? [];
  const action = useAction();
  const body: Record<string, string | null> = {};
  if (planId !== (apiKey.planId ?? '')) body.planId = planId || null;
  if (identityId !== (apiKey.identityId ?? '')) body.identityId = identityId || null;
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      props.onChange(await request<PublicKey>('PATCH', `/keys/${apiKey.id}`, { body }));
      notify(`Plan and identity of ${apiKey.name} saved.`);
    });
  };
  return (
    <form class="form-inline plan-picker" onSubmit={submit} aria-label="Plan and identity of this key">
      <SelectField
        id="key-plan"
        label="Plan"
        value={planId}
        emptyLabel="No plan"
        options={props.plans.map((plan) => plan.id)}
        labelOf={(id) => props.plans.find((plan) => plan.id === id)?.name ?? id}
        onChange={setPlanId}
      />
      <SelectField
        id="key-identity"
        label="Identity"
        value={identityId}
        emptyLabel="No identity"
        options={[
          ...new Set([...(apiKey.identityId ? [apiKey.identityId] : []), ...choices.map((i) => i.id)]),
        ]}
        labelOf={(id) => choices.find((i) => i.id === id)?.externalId ?? id}
        onChange={setIdentityId}
      />
      <button type="submit" class="button-quiet" disabled={action.busy || Object.keys(body).length === 0}>
        Save plan and identity
      </button>
      <ProblemView problem={action.problem ?? identities.problem} focus />
    </form>
  );
}

/**
 * A key's budget on its page: plan and identity (editable), its own credits (or where it spends
 * from), the quotas that count on the key alone, and its billing usage of the month; all read
 * again whenever the page loads the key again (Reload, or a change).
 */
export function KeyBudgetSection(props: { apiKey: PublicKey; onChange: (key: PublicKey) => void }) {
  const { apiKey } = props;
  const path = `/keys/${apiKey.id}`;
  const plans = useLoad(() => request<{ items: Plan[] }>('GET', '/plans'), []);
  const allPlans = plans.data?.items ?? [];
  const plan = allPlans.find((p) => p.id === apiKey.planId) ?? null;
  const month = currentPeriods().month;
  const usage = useLoad(() => loadPeriodUsage(path, month), [path, month, apiKey]);
  const identityLink = apiKey.identityId ? (
    <Link to={`/identities/${apiKey.identityId}`}>its identity</Link>
  ) : null;
  return (
    <section aria-labelledby="budget-heading" class="key-budget">
      <h2 id="budget-heading">Plan, credits and billing</h2>
      <ProblemView problem={plans.problem} />
      <PlanAndIdentityForm key={apiKey.version} apiKey={apiKey} plans={allPlans} onChange={props.onChange} />
      {identityLink ? (
        <p>This key shares the limits, quotas and credits of {identityLink} with its other keys.</p>
      ) : null}
      <h3>Credits</h3>
      <CreditsPanel
        path={path}
        id="key-credits"
        refresh={apiKey}
        notHeld={
          identityLink ? (
            <>This key spends {identityLink}'s credits. Top them up there.</>
          ) : (
            'This key holds no credits of its own.'
          )
        }
      />
      {apiKey.credits ? (
        <CreditsLevelForm
          key={apiKey.version}
          path={path}
          id="key-credits"
          lowAt={apiKey.credits.lowAt}
          onSaved={(key) => props.onChange(key as PublicKey)}
        />
      ) : null}
      <h3>Quotas of this key</h3>
      {plans.data || !apiKey.planId ? (
        <QuotaBars path={path} quotas={effectiveQuotas(plan?.quotas ?? [], apiKey.quotas)} refresh={apiKey} />
      ) : null}
      <h3>Calls in {month}</h3>
      <ProblemView problem={usage.problem} />
      {usage.data ? (
        <UsageOutcomes usage={usage.data} caption={`Calls of ${apiKey.name} in ${month} by outcome`} />
      ) : null}
    </section>
  );
}
