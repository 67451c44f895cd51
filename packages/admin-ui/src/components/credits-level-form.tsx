import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { amountOf } from '../budget-form.ts';
import { useApp } from '../context.ts';
import { formatCount } from '../format.ts';
import { useAction } from '../hooks.ts';
import { ProblemView } from './problem-view.tsx';

/**
 * The `credits.low` level of a key or an identity holding credits of its own (`path`): below it, one
 * alert per refill period. An empty field removes the holder's level, so its plan's applies again.
 */
export function CreditsLevelForm(props: {
  path: string;
  id: string;
  lowAt: number | undefined;
  /** Called with the holder as the PATCH answered it. */
  onSaved: (holder: unknown) => unknown;
}) {
  const { notify } = useApp();
  const [value, setValue] = useState(props.lowAt === undefined ? '' : String(props.lowAt));
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const lowAt = value.trim() === '' ? null : amountOf(value);
    void action.run(async () => {
      const holder = await request('PATCH', props.path, { body: { credits: { lowAt } } });
      notify(
        lowAt === null
          ? 'Low-credit alert level removed: the plan’s applies, if it has one.'
          : `A credits.low alert is sent once the balance falls below ${formatCount(Number(lowAt))}.`,
      );
      await props.onSaved(holder);
    });
  };
  return (
    <form class="form-inline credits-level-form" onSubmit={submit} aria-label="Low-credit alert" noValidate>
      <div class="field">
        <label for={`${props.id}-low-at`}>Send credits.low below (empty: the plan’s level)</label>
        <input
          id={`${props.id}-low-at`}
          inputMode="numeric"
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
        />
      </div>
      <button type="submit" class="button-quiet" disabled={action.busy}>
        {action.busy ? 'Saving…' : 'Save level'}
      </button>
      <ProblemView problem={action.problem} focus />
    </form>
  );
}
