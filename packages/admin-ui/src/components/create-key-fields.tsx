import { errorId } from '../field-errors.ts';
import { isoDay } from '../format.ts';
import type { KeyFormValues } from '../key-form.ts';
import type { Environment, SessionSettings } from '../types.ts';
import { type describedBy, FieldError } from './field-error.tsx';

/** The id of the create form; its field errors are `<form>-<pointer>-error`. */
export const CREATE_FORM = 'create-key';

/** What every field of the create form gets from the form. */
export interface CreateFieldProps {
  values: KeyFormValues;
  set: (patch: Partial<KeyFormValues>) => void;
  /** Messages by field pointer (see groupFieldErrors). */
  errors: Record<string, string[]>;
  /** aria-invalid / aria-describedby of a field (its errors, and a hint when given). */
  aria: (field: string, hintId?: string) => ReturnType<typeof describedBy>;
  settings: SessionSettings;
}

/** Standard or agency key; choosing agency applies its preset. */
export function ModeSwitch(props: { agency: boolean; onMode: (mode: KeyFormValues['mode']) => void }) {
  return (
    <fieldset class="mode-switch">
      <legend>Kind of key</legend>
      <label class="check">
        <input type="radio" name="mode" checked={!props.agency} onChange={() => props.onMode('standard')} />
        Standard key
      </label>
      <label class="check">
        <input type="radio" name="mode" checked={props.agency} onChange={() => props.onMode('agency')} />
        Agency key <span class="muted">(limited scopes, expiry and IP allowlist)</span>
      </label>
    </fieldset>
  );
}

/** The key's name and its environment. */
export function NameAndEnvironment({ values, set, errors, aria, settings }: CreateFieldProps) {
  return (
    <>
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
        <FieldError id={errorId(CREATE_FORM, '/name')} messages={errors['/name']} />
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
        <FieldError id={errorId(CREATE_FORM, '/environment')} messages={errors['/environment']} />
      </fieldset>
    </>
  );
}

/** Expiry date, IP allowlist and rate limit: what limits a key beyond its scopes. */
export function LimitFields({ values, set, errors, aria, settings }: CreateFieldProps) {
  const agency = values.mode === 'agency';
  return (
    <>
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
        <FieldError id={errorId(CREATE_FORM, '/expiresAt')} messages={errors['/expiresAt']} />
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
        <FieldError id={errorId(CREATE_FORM, '/ipAllowlist')} messages={errors['/ipAllowlist']} />
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
        <FieldError id={errorId(CREATE_FORM, '/rateLimit')} messages={errors['/rateLimit']} />
      </div>
    </>
  );
}
