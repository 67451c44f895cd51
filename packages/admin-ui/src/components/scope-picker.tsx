import type { AriaAttributes } from 'preact';

type Level = 'none' | 'r' | 'rw';

function resourcesOf(scopes: readonly string[]): string[] {
  return [...new Set(scopes.map((scope) => scope.split(':')[0] ?? scope))].sort();
}

function levelOf(value: readonly string[], resource: string): Level {
  if (value.includes(`${resource}:rw`)) return 'rw';
  if (value.includes(`${resource}:r`)) return 'r';
  return 'none';
}

function withLevel(value: readonly string[], resource: string, level: Level): string[] {
  const rest = value.filter((scope) => scope !== `${resource}:r` && scope !== `${resource}:rw`);
  return level === 'none' ? rest : [...rest, `${resource}:${level}`].sort();
}

/** Props of the scope picker. */
export interface ScopePickerProps {
  idPrefix: string;
  /** Every scope the gateway knows (session.settings.scopes). */
  available: readonly string[];
  value: readonly string[];
  onChange: (scopes: string[]) => void;
  /** Resources that may not be chosen here (e.g. `auth` for an agency key). */
  disabledResources?: readonly string[];
  /** aria attributes tying the group to its error message. */
  aria?: AriaAttributes;
}

/** Checkboxes per resource, read (`:r`) and read-write (`:rw`); read-write implies read. */
export function ScopePicker(props: ScopePickerProps) {
  const resources = resourcesOf(props.available);
  const has = (scope: string) => props.available.includes(scope);
  return (
    <fieldset class="scope-picker" {...props.aria}>
      <legend>Scopes</legend>
      <p class="hint" id={`${props.idPrefix}-hint`}>
        <code>:r</code> reads, <code>:rw</code> reads and writes (and implies <code>:r</code>).
      </p>
      <div class="scope-grid">
        {resources.map((resource) => {
          const level = levelOf(props.value, resource);
          const off = props.disabledResources?.includes(resource) ?? false;
          return (
            <div class="scope-row" key={resource}>
              <span class="scope-resource">{resource}</span>
              {has(`${resource}:r`) ? (
                <label class="check">
                  <input
                    type="checkbox"
                    id={`${props.idPrefix}-${resource}-r`}
                    checked={level !== 'none'}
                    disabled={off || level === 'rw'}
                    onChange={(e) =>
                      props.onChange(withLevel(props.value, resource, e.currentTarget.checked ? 'r' : 'none'))
                    }
                  />
                  <code>{resource}:r</code>
                </label>
              ) : null}
              {has(`${resource}:rw`) ? (
                <label class="check">
                  <input
                    type="checkbox"
                    id={`${props.idPrefix}-${resource}-rw`}
                    checked={level === 'rw'}
                    disabled={off}
                    onChange={(e) =>
                      props.onChange(withLevel(props.value, resource, e.currentTarget.checked ? 'rw' : 'r'))
                    }
                  />
                  <code>{resource}:rw</code>
                </label>
              ) : null}
              {resource === 'auth' && level === 'rw' ? (
                <span class="warning-inline">auth:rw lets this key create, change and revoke keys.</span>
              ) : null}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
