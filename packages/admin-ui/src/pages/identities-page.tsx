import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import type { Identity, Plan } from '../budget-types.ts';
import { BillingExport } from '../components/billing-export.tsx';
import { CreateIdentityForm } from '../components/create-identity-form.tsx';
import { DataTable } from '../components/data-table.tsx';
import { SelectField } from '../components/form-fields.tsx';
import { Link } from '../components/link.tsx';
import { PageHeading } from '../components/page-heading.tsx';
import { PagedView } from '../components/paged-view.tsx';
import { useApp } from '../context.ts';
import { formatTime } from '../format.ts';
import { useLoad, usePaged } from '../hooks.ts';
import { navigate } from '../router.ts';
import { ENVIRONMENTS, type Page } from '../types.ts';

const PAGE_SIZE = 50;

/** The integrators' customers, paged, filterable by environment; a form for a new one; the billing export. */
export function IdentitiesPage() {
  const { notify } = useApp();
  const [environment, setEnvironment] = useState('');
  const [creating, setCreating] = useState(false);
  const plans = useLoad(() => request<{ items: Plan[] }>('GET', '/plans'), []);
  const planOf = (id: string | null) => plans.data?.items.find((plan) => plan.id === id) ?? null;
  const credits = (identity: Identity) =>
    identity.credits ? 'own balance' : planOf(identity.planId)?.credits ? "plan's refill" : '—';
  const identities = usePaged<Identity>(
    (cursor) =>
      request<Page<Identity>>('GET', '/identities', { query: { environment, limit: PAGE_SIZE, cursor } }),
    [environment],
  );
  const created = (identity: Identity) => {
    notify(`Identity ${identity.externalId} created.`);
    navigate(`/identities/${identity.id}`);
  };

  return (
    <section>
      <div class="page-head">
        <PageHeading title="Identities" />
        {creating ? null : (
          <button type="button" class="button-primary" onClick={() => setCreating(true)}>
            New identity
          </button>
        )}
      </div>
      <p class="hint">
        An identity is one of your customers: all its keys share its plan's limits, quotas and credits.
      </p>
      {creating ? (
        <section aria-labelledby="new-identity-heading">
          <h2 id="new-identity-heading">New identity</h2>
          <CreateIdentityForm plans={plans.data?.items ?? []} onCreated={created} />
        </section>
      ) : null}
      <PagedView
        paged={identities}
        empty="No identities yet."
        loadMoreLabel="Load more identities"
        toolbar={
          <form class="filters" aria-label="Filter identities" onSubmit={(e) => e.preventDefault()}>
            <SelectField
              id="identities-environment"
              label="Environment"
              value={environment}
              emptyLabel="All"
              options={ENVIRONMENTS}
              onChange={setEnvironment}
            />
          </form>
        }
      >
        <DataTable
          class="identities-table"
          caption="Identities"
          columns={['External id', 'Env', 'Plan', 'Credits', 'Created']}
        >
          {identities.items.map((identity) => (
            <tr key={identity.id} class="identity-row">
              <th scope="row">
                <Link to={`/identities/${identity.id}`}>{identity.externalId}</Link>
              </th>
              <td>
                <span class={`env env-${identity.environment}`}>{identity.environment}</span>
              </td>
              <td>{identity.planId ? (planOf(identity.planId)?.name ?? identity.planId) : '—'}</td>
              <td>{credits(identity)}</td>
              <td>{formatTime(identity.createdAt)}</td>
            </tr>
          ))}
        </DataTable>
      </PagedView>
      <BillingExport />
    </section>
  );
}
