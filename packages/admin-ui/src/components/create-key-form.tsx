import { useState } from 'preact/hooks';
import { type Problem, request } from '../api.ts';
import { useApp } from '../context.ts';
import { errorId, groupFieldErrors } from '../field-errors.ts';
import { isoDay } from '../format.ts';
import {
  agencyPreset,
  checkAgency,
  initialValues,
  KEY_FIELDS,
  type KeyFormValues,
  toCreateRequest,
} from '../key-form.ts';
import type { Environment, KeyWithSecret } from '../types.ts';
import { describedBy, FieldError } from './field-error.tsx';
import { ProblemView, toProblem } from './problem-view.tsx';
import { ScopePicker } from './scope-picker.tsx';

const FORM = 'create-key';
/** The input each request member's errors lead to. */
const FIELD_IDS: Record<string, string> = {
  '/name': 'key-name',
  '/environment': 'key-environment-live',
  '/scopes': 'create-scope-article-r',
  '/expiresAt': 'key-expiry',
  '/ipAllowlist': 'key-ips',
  '/rateLimit': 'key-rate',
};

/** Every field of a new key, with an agency mode that limits scopes, expiry and IP range in one go. */
export function CreateKeyForm(props: { onCreated: (key: KeyWithSecret) => void }) {
  const { session } = useApp();
  const { settings } = session;
  const [values, setValues] = useState<KeyFormValues>(initialValues);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = groupFieldErrors(problem, KEY_FIELDS);
  const set = (patch: Partial<KeyFormValues>) => setValues((current) => ({ ...current, ...patch }));
  const aria = (field: string, hintId?: string) => describedBy(errorId(FORM, field), errors[field], hintId);
  const agency = values.mode === 'agency';

  const setMode = (mode: KeyFormValues['mode']) =>
    setValues((current) => (mode === 'agency' ? agencyPreset(current, settings) : { ...current, mode }));

  const submit = async (event: Event) => {
    event.preventDefault();
    const local = checkAgency(values);
    if (local) return setProblem(local);
    setBusy(true);
    setProblem(null);
    try {
      props.onCreated(await request<KeyWithSecret>('POST', '/keys', { body: toCreateRequest(values) }));
    } catch (error) {
      setProblem(toProblem(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="form form-wide" id={FORM} onSubmit={submit} noValidate>
      <ProblemView problem={problem} focus fields={FIELD_IDS} />
      <fieldset class="mode-switch">
        <legend>Kind of key</legend>
        <label class="check">
          <input type="radio" name="mode" checked={!agency} onChange={() => setMode('standard')} />
          Standard key
        </label>
        <label class="check">
          <input type="radio" name="mode" checked={agency} onChange={() => setMode('agency')} />
          Agency key <span class="muted">(limited scopes, expiry and IP allowlist)</span>
        </label>
      </fieldset>
      <div class="field">
        <label for="key-name">Name</label>
        <input
          id="key-name"
          required
          maxLength={100}
          value={values.name}
          onInput={(e) => set({ name: e.currentTarget.value })}
          {...aria('/name')}
        />
        <FieldError id={errorId(FORM, '/name')} messages={errors['/name']} />
      </div>
      <fieldset class="inline-choices" {...aria('/environment')}>
        <legend>Environment</legend>
        {settings.environments.map((environment) => (
          <label class="check" key={environment}>
            <input
              type="radio"
              name="environment"
              id={`key-environment-${environment}`}
              value={environment}
              checked={values.environment === environment}
              onChange={() => set({ environment: environment as Environment })}
            />
            {environment}
          </label>
        ))}
        <FieldError id={errorId(FORM, '/environment')} messages={errors['/environment']} />
      </fieldset>
      <ScopePicker
        idPrefix="create-scope"
        available={settings.scopes}
        value={values.scopes}
        onChange={(scopes) => set({ scopes })}
        disabledResources={agency ? ['auth'] : []}
        aria={aria('/scopes', 'create-scope-hint')}
      />
      <FieldError id={errorId(FORM, '/scopes')} messages={errors['/scopes']} />
      <div class="field">
        <label for="key-expiry">Expiry date (last valid day, UTC){agency ? ' — required' : ''}</label>
        <input
          id="key-expiry"
          type="date"
          min={isoDay(0)}
          required={agency}
          value={values.expiresAt}
          onInput={(e) => set({ expiresAt: e.currentTarget.value })}
          {...aria('/expiresAt', 'key-expiry-hint')}
        />
        <p class="hint" id="key-expiry-hint">
          Empty: never expires. Reminders {settings.expiryReminderDays.join(', ')} days before.
        </p>
        <FieldError id={errorId(FORM, '/expiresAt')} messages={errors['/expiresAt']} />
      </div>
      <div class="field">
        <label for="key-ips">IP allowlist{agency ? ' — required' : ''}</label>
        <textarea
          id="key-ips"
          rows={4}
          required={agency}
          value={values.ipAllowlist}
          onInput={(e) => set({ ipAllowlist: e.currentTarget.value })}
          {...aria('/ipAllowlist', 'key-ips-hint')}
        />
        <p class="hint" id="key-ips-hint">
          One IPv4/IPv6 address or CIDR range per line, e.g. 203.0.113.0/24. Empty: any address.
        </p>
        <FieldError id={errorId(FORM, '/ipAllowlist')} messages={errors['/ipAllowlist']} />
      </div>
      <div class="field">
        <label for="key-rate">Rate limit (requests per minute)</label>
        <input
          id="key-rate"
          type="number"
          min={1}
          max={100000}
          step={1}
          placeholder={String(settings.defaultRateLimitPerMinute)}
          value={values.rateLimit}
          onInput={(e) => set({ rateLimit: e.currentTarget.value })}
          {...aria('/rateLimit', 'key-rate-hint')}
        />
        <p class="hint" id="key-rate-hint">
          Empty: {settings.defaultRateLimitPerMinute} per minute.
        </p>
        <FieldError id={errorId(FORM, '/rateLimit')} messages={errors['/rateLimit']} />
      </div>
      {errors[''] ? <FieldError id={`${FORM}-other-error`} messages={errors['']} /> : null}
      <button type="submit" class="button-primary" disabled={busy}>
        {busy ? 'Creating…' : agency ? 'Create agency key' : 'Create key'}
      </button>
    </form>
  );
}
