import { useState } from 'preact/hooks';
import { type Problem, request } from '../api.ts';
import { useApp } from '../context.ts';
import { errorId, groupFieldErrors } from '../field-errors.ts';
import type { PublicKey } from '../types.ts';
import { describedBy, FieldError } from './field-error.tsx';
import { ProblemView, toProblem } from './problem-view.tsx';
import { ScopePicker } from './scope-picker.tsx';

const FORM = 'edit-scopes';

/** Changes a key's scopes (administrators may grant auth:rw). */
export function ScopesEditor(props: { apiKey: PublicKey; onChange: (key: PublicKey) => void }) {
  const { session, notify } = useApp();
  const [scopes, setScopes] = useState<string[]>(props.apiKey.scopes);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = groupFieldErrors(problem, ['/scopes']);
  const unchanged = [...scopes].sort().join() === [...props.apiKey.scopes].sort().join();

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const key = await request<PublicKey>('POST', `/keys/${props.apiKey.id}/scopes`, { body: { scopes } });
      setScopes(key.scopes);
      props.onChange(key);
      notify(`Scopes saved: ${key.scopes.join(', ')}.`);
    } catch (error) {
      setProblem(toProblem(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="form" id={FORM} onSubmit={submit} noValidate>
      <ProblemView problem={problem} focus />
      <ScopePicker
        idPrefix="edit-scope"
        available={session.settings.scopes}
        value={scopes}
        onChange={setScopes}
        aria={describedBy(errorId(FORM, '/scopes'), errors['/scopes'], 'edit-scope-hint')}
      />
      <FieldError id={errorId(FORM, '/scopes')} messages={errors['/scopes']} />
      <button type="submit" class="button-primary" disabled={busy || unchanged}>
        {busy ? 'Saving…' : 'Save scopes'}
      </button>
    </form>
  );
}
