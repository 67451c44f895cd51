import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { useApp } from '../context.ts';
import { errorId, groupFieldErrors } from '../field-errors.ts';
import { useAction } from '../hooks.ts';
import type { PublicKey } from '../types.ts';
import { describedBy, FieldError } from './field-error.tsx';
import { ProblemView } from './problem-view.tsx';
import { ScopePicker } from './scope-picker.tsx';

const FORM = 'edit-scopes';

/** Changes a key's scopes (administrators may grant auth:rw). */
export function ScopesEditor(props: { apiKey: PublicKey; onChange: (key: PublicKey) => void }) {
  const { session, notify } = useApp();
  const [scopes, setScopes] = useState<string[]>(props.apiKey.scopes);
  const { busy, problem, run } = useAction();
  const errors = groupFieldErrors(problem, ['/scopes']);
  const unchanged = [...scopes].sort().join() === [...props.apiKey.scopes].sort().join();

  const submit = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      const key = await request<PublicKey>('POST', `/keys/${props.apiKey.id}/scopes`, { body: { scopes } });
      setScopes(key.scopes);
      props.onChange(key);
      notify(`Scopes saved: ${key.scopes.join(', ')}.`);
    });
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
