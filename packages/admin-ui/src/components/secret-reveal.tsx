import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A freshly issued secret, shown once: held only in the parent's component state (never stored or
 * put in the URL), so it is gone as soon as the page is left.
 */
export function SecretReveal(props: { secret: string; title: string }) {
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const valueRef = useRef<HTMLElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.secret);
      setCopyState('copied');
    } catch {
      // No clipboard access (permissions, insecure context): select the text for a manual copy.
      const selection = window.getSelection();
      if (valueRef.current && selection) selection.selectAllChildren(valueRef.current);
      setCopyState('failed');
    }
  };

  return (
    <section class="secret-reveal" aria-labelledby="secret-heading">
      <h2 id="secret-heading" ref={headingRef} tabIndex={-1}>
        {props.title}
      </h2>
      <p class="warning" id="secret-warning">
        <strong>Copy this secret now.</strong> It is shown only this once: keygate stores only a hash and
        cannot show it again. If it is lost, rotate the key.
      </p>
      <div class="secret-box">
        <code class="secret-value" ref={valueRef} aria-describedby="secret-warning" data-testid="secret">
          {props.secret}
        </code>
        <button type="button" class="button-primary" onClick={copy}>
          Copy secret
        </button>
      </div>
      <p class="copy-status" role="status" aria-live="polite">
        {copyState === 'copied' ? 'Copied to the clipboard.' : null}
        {copyState === 'failed'
          ? 'Could not copy automatically: the secret is selected, press Ctrl+C.'
          : null}
      </p>
    </section>
  );
}
