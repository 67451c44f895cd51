import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { useApp } from '../context.ts';
import { errorId, groupFieldErrors } from '../field-errors.ts';
import { useAction } from '../hooks.ts';
import {
  agencyPreset,
  checkAgency,
  initialValues,
  KEY_FIELDS,
  type KeyFormValues,
  toCreateRequest,
} from '../key-form.ts';
import type { KeyWithSecret } from '../types.ts';
import { CREATE_FORM, LimitFields, ModeSwitch, NameAndEnvironment } from './create-key-fields.tsx';
import { describedBy, FieldError } from './field-error.tsx';
import { ProblemView } from './problem-view.tsx';
import { ScopePicker } from './scope-picker.tsx';

/** The input each request member's errors lead to. */
const FIELD_IDS: Record<string, string> = {
  '/name': 'key-name',
  '/environment': 'key-environment-live',
  '/scopes': 'create-scope-article-r',
  '/expiresAt': 'key-expiry',
  '/ipAllowlist': 'key-ips',
  '/rateLimit': 'key-rate',
};

/** The create form's state: values, the mode switch, and submitting (agency rules checked first). */
function useCreateKey(onCreated: (key: KeyWithSecret) => void) {
  const { settings } = useApp().session;
  const [values, setValues] = useState<KeyFormValues>(initialValues);
  const { busy, problem, setProblem, run } = useAction();
  const set = (patch: Partial<KeyFormValues>) => setValues((current) => ({ ...current, ...patch }));
  const setMode = (mode: KeyFormValues['mode']) =>
    setValues((current) => (mode === 'agency' ? agencyPreset(current, settings) : { ...current, mode }));

  const submit = async (event: Event) => {
    event.preventDefault();
    const local = checkAgency(values);
    if (local) return setProblem(local);
    await run(async () => {
      onCreated(await request<KeyWithSecret>('POST', '/keys', { body: toCreateRequest(values) }));
    });
  };
  return { settings, values, set, setMode, problem, busy, submit };
}

/** Every field of a new key, with an agency mode that limits scopes, expiry and IP range in one go. */
export function CreateKeyForm(props: { onCreated: (key: KeyWithSecret) => void }) {
  const { settings, values, set, setMode, problem, busy, submit } = useCreateKey(props.onCreated);
  const errors = groupFieldErrors(problem, KEY_FIELDS);
  const aria = (field: string, hintId?: string) =>
    describedBy(errorId(CREATE_FORM, field), errors[field], hintId);
  const fields = { values, set, errors, aria, settings };
  const agency = values.mode === 'agency';

  return (
    <form class="form form-wide" id={CREATE_FORM} onSubmit={submit} noValidate>
      <ProblemView problem={problem} focus fields={FIELD_IDS} />
      <ModeSwitch agency={agency} onMode={setMode} />
      <NameAndEnvironment {...fields} />
      <ScopePicker
        idPrefix="create-scope"
        available={settings.scopes}
        value={values.scopes}
        onChange={(scopes) => set({ scopes })}
        disabledResources={agency ? ['auth'] : []}
        aria={aria('/scopes', 'create-scope-hint')}
      />
      <FieldError id={errorId(CREATE_FORM, '/scopes')} messages={errors['/scopes']} />
      <LimitFields {...fields} />
      {errors[''] ? <FieldError id={`${CREATE_FORM}-other-error`} messages={errors['']} /> : null}
      <button type="submit" class="button-primary" disabled={busy}>
        {busy ? 'Creating…' : agency ? 'Create agency key' : 'Create key'}
      </button>
    </form>
  );
}
