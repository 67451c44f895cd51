import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { amountOf } from '../budget-form.ts';
import type { CreditsView } from '../budget-types.ts';
import { useApp } from '../context.ts';
import { formatCount, formatTime } from '../format.ts';
import { useAction, useLoad } from '../hooks.ts';
import { ProblemView } from './problem-view.tsx';

type Operation = 'increment' | 'set' | 'decrement';

const OPERATIONS: Record<Operation, string> = {
  increment: 'Top up by',
  set: 'Set to',
  decrement: 'Take off',
};

/** The top-up / set / take-off form of a balance; the API answers the balance after. */
function CreditsForm(props: { path: string; id: string; onChanged: (credits: CreditsView) => void }) {
  const { notify } = useApp();
  const [operation, setOperation] = useState<Operation>('increment');
  const [amount, setAmount] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const credits = await request<CreditsView>('POST', `${props.path}/credits`, {
        body: { [operation]: amountOf(amount) },
      });
      setAmount('');
      props.onChanged(credits);
      notify(`Credits now ${formatCount(credits.remaining)}.`);
    });
  };
  return (
    <form class="form-inline credits-form" onSubmit={submit} aria-label="Change credits" noValidate>
      <div class="field">
        <label for={`${props.id}-operation`}>Change</label>
        <select
          id={`${props.id}-operation`}
          value={operation}
          onChange={(e) => setOperation(e.currentTarget.value as Operation)}
        >
          {(Object.keys(OPERATIONS) as Operation[]).map((op) => (
            <option key={op} value={op}>
              {OPERATIONS[op]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`${props.id}-amount`}>Amount of credits</label>
        <input
          id={`${props.id}-amount`}
          inputMode="numeric"
          value={amount}
          onInput={(e) => setAmount(e.currentTarget.value)}
        />
      </div>
      <button type="submit" class="button-primary" disabled={action.busy}>
        {action.busy ? 'Applying…' : 'Apply'}
      </button>
      <ProblemView problem={action.problem} focus />
    </form>
  );
}

/**
 * The balance of a key or an identity (`path`) and a form to change it. A holder without a balance
 * of its own answers 409 CREDITS_NOT_HELD: `notHeld` says why, in the holder's terms.
 */
export function CreditsPanel(props: {
  path: string;
  id: string;
  notHeld: ComponentChildren;
  refresh?: unknown;
}) {
  const credits = useLoad(
    () => request<CreditsView>('GET', `${props.path}/credits`),
    [props.path, props.refresh],
  );
  if (credits.problem?.code === 'CREDITS_NOT_HELD') return <p class="credits-none">{props.notHeld}</p>;
  const view = credits.data;
  return (
    <div class="credits">
      <ProblemView problem={credits.problem} />
      {view ? (
        <>
          <p class="credits-remaining">
            <strong>{formatCount(view.remaining)}</strong> credits remaining
            {view.refill ? (
              <span class="muted">
                {' '}
                · refills to {formatCount(view.refill.amount)} {view.refill.interval}, next{' '}
                {formatTime(view.refillsAt)}
              </span>
            ) : null}
          </p>
          <CreditsForm path={props.path} id={props.id} onChanged={credits.set} />
        </>
      ) : credits.loading ? (
        <p class="muted">Loading credits…</p>
      ) : null}
    </div>
  );
}
