import { useState } from 'preact/hooks';
import { type PlanFormValues, toPlanRequest } from '../budget-form.ts';
import { LIMIT_WINDOWS, type LimitWindow, QUOTA_PERIODS } from '../budget-types.ts';
import { useAction } from '../hooks.ts';
import { ProblemView } from './problem-view.tsx';

/** The rate-limit rows: name, window and count, one row each, with add and remove. */
function LimitRows(props: {
  id: string;
  values: PlanFormValues;
  set: (patch: Partial<PlanFormValues>) => void;
}) {
  const { id, values, set } = props;
  const setRow = (index: number, patch: Partial<PlanFormValues['limits'][number]>) =>
    set({ limits: values.limits.map((row, i) => (i === index ? { ...row, ...patch } : row)) });
  return (
    <fieldset>
      <legend>Rate limits</legend>
      {values.limits.map((row, index) => (
        <div class="form-inline" key={index}>
          <div class="field">
            <label for={`${id}-limit-name-${index}`}>Limit {index + 1} name</label>
            <input
              id={`${id}-limit-name-${index}`}
              value={row.name}
              onInput={(e) => setRow(index, { name: e.currentTarget.value })}
            />
          </div>
          <div class="field">
            <label for={`${id}-limit-window-${index}`}>Limit {index + 1} window</label>
            <select
              id={`${id}-limit-window-${index}`}
              value={row.window}
              onChange={(e) => setRow(index, { window: e.currentTarget.value as LimitWindow })}
            >
              {LIMIT_WINDOWS.map((w) => (
                <option key={w} value={w}>
                  per {w}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for={`${id}-limit-count-${index}`}>Limit {index + 1} calls</label>
            <input
              id={`${id}-limit-count-${index}`}
              inputMode="numeric"
              value={row.limit}
              onInput={(e) => setRow(index, { limit: e.currentTarget.value })}
            />
          </div>
          <button
            type="button"
            class="button-quiet"
            onClick={() => set({ limits: values.limits.filter((_, i) => i !== index) })}
          >
            Remove limit {index + 1}
          </button>
        </div>
      ))}
      <button
        type="button"
        class="button-quiet"
        onClick={() => set({ limits: [...values.limits, { name: '', window: 'minute', limit: '' }] })}
      >
        Add a rate limit
      </button>
    </fieldset>
  );
}

/** Quotas per calendar period and the credits refill. */
function QuotaAndRefill(props: {
  id: string;
  values: PlanFormValues;
  set: (patch: Partial<PlanFormValues>) => void;
}) {
  const { id, values, set } = props;
  return (
    <>
      <fieldset>
        <legend>Quotas (calls per calendar period, UTC; empty for none)</legend>
        <div class="form-inline">
          {QUOTA_PERIODS.map((period) => (
            <div class="field" key={period}>
              <label for={`${id}-quota-${period}`}>Per {period}</label>
              <input
                id={`${id}-quota-${period}`}
                inputMode="numeric"
                value={values.quotas[period]}
                onInput={(e) => set({ quotas: { ...values.quotas, [period]: e.currentTarget.value } })}
              />
            </div>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Credits refill</legend>
        <div class="form-inline">
          <div class="field">
            <label for={`${id}-refill-interval`}>Refill</label>
            <select
              id={`${id}-refill-interval`}
              value={values.refillInterval}
              onChange={(e) =>
                set({ refillInterval: e.currentTarget.value as PlanFormValues['refillInterval'] })
              }
            >
              <option value="">No credits</option>
              <option value="daily">Daily</option>
              <option value="monthly">Monthly</option>
            </select>
          </div>
          {values.refillInterval === '' ? null : (
            <div class="field">
              <label for={`${id}-refill-amount`}>Refill amount</label>
              <input
                id={`${id}-refill-amount`}
                inputMode="numeric"
                value={values.refillAmount}
                onInput={(e) => set({ refillAmount: e.currentTarget.value })}
              />
            </div>
          )}
          {values.refillInterval === 'monthly' ? (
            <div class="field">
              <label for={`${id}-refill-day`}>Day of the month</label>
              <input
                id={`${id}-refill-day`}
                inputMode="numeric"
                placeholder="1"
                value={values.refillDay}
                onInput={(e) => set({ refillDay: e.currentTarget.value })}
              />
            </div>
          ) : null}
        </div>
      </fieldset>
    </>
  );
}

/** A plan's form (create or edit): sends every member to `submit`, shows the API's problem. */
export function PlanForm(props: {
  id: string;
  initial: PlanFormValues;
  submitLabel: string;
  submit: (body: Record<string, unknown>) => Promise<void>;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState(props.initial);
  const action = useAction();
  const set = (patch: Partial<PlanFormValues>) => setValues((current) => ({ ...current, ...patch }));
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void action.run(() => props.submit(toPlanRequest(values)));
  };
  const fields: Record<string, string> = { '/name': `${props.id}-name`, '/quotas': `${props.id}-quota-day` };
  return (
    <form class="form form-wide" id={props.id} onSubmit={onSubmit} noValidate>
      <ProblemView problem={action.problem} focus fields={fields} />
      <div class="field">
        <label for={`${props.id}-name`}>Plan name</label>
        <input
          id={`${props.id}-name`}
          required
          maxLength={100}
          value={values.name}
          onInput={(e) => set({ name: e.currentTarget.value })}
        />
      </div>
      <LimitRows id={props.id} values={values} set={set} />
      <QuotaAndRefill id={props.id} values={values} set={set} />
      <div class="page-links">
        <button type="submit" class="button-primary" disabled={action.busy}>
          {action.busy ? 'Saving…' : props.submitLabel}
        </button>
        {props.onCancel ? (
          <button type="button" class="button-quiet" onClick={props.onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
