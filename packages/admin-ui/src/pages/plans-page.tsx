import { useState } from 'preact/hooks';
import { type Problem, request } from '../api.ts';
import { describePlan, emptyPlanValues, planValues } from '../budget-form.ts';
import type { Plan } from '../budget-types.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { DataTable } from '../components/data-table.tsx';
import { PageHeading } from '../components/page-heading.tsx';
import { PlanForm } from '../components/plan-form.tsx';
import { ProblemView } from '../components/problem-view.tsx';
import { useApp } from '../context.ts';
import { formatTime } from '../format.ts';
import { useAction, useLoad } from '../hooks.ts';

/** Deleting a plan behind a confirmation; a plan still in use answers 409 PLAN_IN_USE, shown with its detail. */
function DeletePlan(props: {
  plan: Plan;
  onDeleted: () => void;
  onProblem: (problem: Problem | null) => void;
}) {
  const { notify } = useApp();
  const [open, setOpen] = useState(false);
  const action = useAction();
  const remove = () =>
    action.run(
      async () => {
        props.onProblem(null);
        await request('DELETE', `/plans/${props.plan.id}`);
        setOpen(false);
        notify(`Plan ${props.plan.name} deleted.`);
        props.onDeleted();
      },
      (problem) => {
        setOpen(false);
        props.onProblem(problem);
      },
    );
  return (
    <>
      <button type="button" class="button-danger-quiet" onClick={() => setOpen(true)}>
        Delete<span class="visually-hidden"> plan {props.plan.name}</span>
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete plan "${props.plan.name}"?`}
        confirmLabel="Delete plan"
        busy={action.busy}
        onCancel={() => setOpen(false)}
        onConfirm={() => void remove()}
      >
        <p>A plan that a key or an identity still names cannot be deleted.</p>
      </ConfirmDialog>
    </>
  );
}

/** Every plan with its limits, quotas and refill; create, edit in place, delete. */
export function PlansPage() {
  const { notify } = useApp();
  const plans = useLoad(() => request<{ items: Plan[] }>('GET', '/plans'), []);
  const [editing, setEditing] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleteProblem, setDeleteProblem] = useState<Problem | null>(null);
  const items = plans.data?.items ?? [];

  const create = async (body: Record<string, unknown>) => {
    const plan = await request<Plan>('POST', '/plans', { body });
    setCreating(false);
    notify(`Plan ${plan.name} created.`);
    await plans.reload();
  };
  const update = (id: string) => async (body: Record<string, unknown>) => {
    const plan = await request<Plan>('PATCH', `/plans/${id}`, { body });
    setEditing(null);
    notify(`Plan ${plan.name} saved: every key on it follows from its next call.`);
    await plans.reload();
  };

  return (
    <section>
      <div class="page-head">
        <PageHeading title="Plans" />
        {creating ? null : (
          <button type="button" class="button-primary" onClick={() => setCreating(true)}>
            New plan
          </button>
        )}
      </div>
      {creating ? (
        <section aria-labelledby="new-plan-heading">
          <h2 id="new-plan-heading">New plan</h2>
          <PlanForm
            id="new-plan"
            initial={emptyPlanValues()}
            submitLabel="Create plan"
            submit={create}
            onCancel={() => setCreating(false)}
          />
        </section>
      ) : null}
      <ProblemView problem={plans.problem} />
      <ProblemView problem={deleteProblem} focus />
      <p class="muted" aria-live="polite">
        {plans.loading ? 'Loading plans…' : `${items.length} ${items.length === 1 ? 'plan' : 'plans'}`}
      </p>
      {items.length > 0 ? (
        <DataTable
          class="plans-table"
          caption="Plans"
          columns={['Name', 'Limits, quotas and credits', 'Updated']}
          actions
        >
          {items.map((plan) =>
            editing === plan.id ? (
              <tr key={plan.id}>
                <td colSpan={4}>
                  <h2 id={`edit-${plan.id}-heading`}>Edit plan {plan.name}</h2>
                  <PlanForm
                    id={`edit-${plan.id}`}
                    initial={planValues(plan)}
                    submitLabel="Save plan"
                    submit={update(plan.id)}
                    onCancel={() => setEditing(null)}
                  />
                </td>
              </tr>
            ) : (
              <tr key={plan.id} class="plan-row">
                <th scope="row">{plan.name}</th>
                <td>{describePlan(plan)}</td>
                <td>{formatTime(plan.updatedAt)}</td>
                <td class="row-actions">
                  <button type="button" class="button-quiet" onClick={() => setEditing(plan.id)}>
                    Edit<span class="visually-hidden"> plan {plan.name}</span>
                  </button>
                  <DeletePlan
                    plan={plan}
                    onDeleted={() => void plans.reload()}
                    onProblem={setDeleteProblem}
                  />
                </td>
              </tr>
            ),
          )}
        </DataTable>
      ) : null}
    </section>
  );
}
