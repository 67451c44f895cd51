import { useState } from 'preact/hooks';
import type { Plan } from '../budget-types.ts';
import { useAction } from '../hooks.ts';
import { SelectField } from './form-fields.tsx';
import { ProblemView } from './problem-view.tsx';

/** A select of the plans (or none) and a Save button that hands the choice to `save`. */
export function PlanPicker(props: {
  id: string;
  label: string;
  plans: Plan[];
  planId: string | null;
  save: (planId: string | null) => Promise<void>;
}) {
  const [choice, setChoice] = useState(props.planId ?? '');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(() => props.save(choice === '' ? null : choice));
  };
  return (
    <form class="form-inline plan-picker" onSubmit={submit} aria-label={props.label}>
      <SelectField
        id={props.id}
        label={props.label}
        value={choice}
        emptyLabel="No plan"
        options={props.plans.map((plan) => plan.id)}
        labelOf={(id) => props.plans.find((plan) => plan.id === id)?.name ?? id}
        onChange={setChoice}
      />
      <button type="submit" class="button-quiet" disabled={action.busy || choice === (props.planId ?? '')}>
        Save plan
      </button>
      <ProblemView problem={action.problem} focus />
    </form>
  );
}
