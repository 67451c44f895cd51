import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { useApp } from '../context.ts';
import { errorId, groupFieldErrors } from '../field-errors.ts';
import { useAction } from '../hooks.ts';
import type { KeyWithSecret, PublicKey } from '../types.ts';
import { describedBy, FieldError } from './field-error.tsx';
import { ProblemView } from './problem-view.tsx';

const FORM = 'rotate';

/** Rotation: a new secret now, the old one kept working for `overlapDays`. */
export function RotateForm(props: { apiKey: PublicKey; onRotated: (result: KeyWithSecret) => void }) {
  const { session } = useApp();
  const max = session.settings.maxOverlapDays;
  const [overlapDays, setOverlapDays] = useState(String(Math.min(1, max)));
  const { busy, problem, run } = useAction();
  const errors = groupFieldErrors(problem, ['/overlapDays']);

  const submit = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      const body = overlapDays.trim() === '' ? {} : { overlapDays: Number(overlapDays) };
      props.onRotated(await request<KeyWithSecret>('POST', `/keys/${props.apiKey.id}/rotate`, { body }));
    });
  };

  return (
    <form class="form form-inline rotate-form" id={FORM} onSubmit={submit} noValidate>
      <ProblemView problem={problem} focus />
      <div class="field">
        <label for="rotate-overlap">Overlap (days the old secret keeps working)</label>
        <input
          id="rotate-overlap"
          type="number"
          min={0}
          max={max}
          step={1}
          value={overlapDays}
          onInput={(e) => setOverlapDays(e.currentTarget.value)}
          {...describedBy(errorId(FORM, '/overlapDays'), errors['/overlapDays'], 'rotate-hint')}
        />
        <p class="hint" id="rotate-hint">
          0 to {max} days. The new secret is shown once.
        </p>
        <FieldError id={errorId(FORM, '/overlapDays')} messages={errors['/overlapDays']} />
      </div>
      <button type="submit" class="button-primary" disabled={busy}>
        {busy ? 'Rotating…' : 'Rotate key'}
      </button>
    </form>
  );
}
