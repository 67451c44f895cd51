/** The messages for one form field, referenced by the field's aria-describedby. */
export function FieldError(props: { id: string; messages: string[] | undefined }) {
  if (!props.messages || props.messages.length === 0) return null;
  return (
    <p id={props.id} class="field-error">
      {props.messages.join(' ')}
    </p>
  );
}

/** aria attributes of a field that may have errors (and an optional hint). */
export function describedBy(
  errorElementId: string,
  messages: string[] | undefined,
  hintId?: string,
): { 'aria-invalid'?: 'true'; 'aria-describedby'?: string } {
  const ids = [hintId, messages?.length ? errorElementId : undefined].filter(Boolean).join(' ');
  return {
    ...(messages?.length ? { 'aria-invalid': 'true' as const } : {}),
    ...(ids ? { 'aria-describedby': ids } : {}),
  };
}
