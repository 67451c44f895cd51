import type { InputHTMLAttributes, Ref } from 'preact';

/** A labelled select; `emptyLabel` adds a first option with the value '' (e.g. "All"). */
export function SelectField(props: {
  id: string;
  label: string;
  value: string;
  options: readonly string[];
  labelOf?: (value: string) => string;
  emptyLabel?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        {props.emptyLabel === undefined ? null : <option value="">{props.emptyLabel}</option>}
        {props.options.map((option) => (
          <option key={option} value={option}>
            {props.labelOf ? props.labelOf(option) : option}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The attributes an InputField passes on to its input. */
export interface InputAttributes {
  id: string;
  value: string;
  type?: 'email' | 'password' | 'date';
  name?: string;
  autoComplete?: string;
  placeholder?: string;
  required?: boolean;
}

/** A labelled text-like input that reports each edit's value. */
export function InputField(
  props: InputAttributes & {
    label: string;
    onValue: (value: string) => void;
    inputRef?: Ref<HTMLInputElement>;
  },
) {
  const { label, onValue, inputRef, ...attributes } = props;
  return (
    <div class="field">
      <label for={attributes.id}>{label}</label>
      <input
        ref={inputRef}
        // Preact types an input's attributes as a union by `type`; ours are valid for each of them.
        {...(attributes as InputHTMLAttributes<HTMLInputElement>)}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
    </div>
  );
}
