import { useEffect, useRef, useState } from 'preact/hooks';
import { request } from '../api.ts';
import { useApp } from '../context.ts';
import { formatTime } from '../format.ts';
import { useAction } from '../hooks.ts';
import type { PublicKey } from '../types.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { ProblemView } from './problem-view.tsx';

/** Revoking a key, behind a confirmation dialog. */
export function RevokeSection(props: { apiKey: PublicKey; onRevoked: (key: PublicKey) => void }) {
  const { notify } = useApp();
  const [open, setOpen] = useState(false);
  const { busy, problem, run } = useAction();
  const statusRef = useRef<HTMLParagraphElement>(null);
  const revoked = props.apiKey.status === 'revoked';
  const [justRevoked, setJustRevoked] = useState(false);

  useEffect(() => {
    // The revoke button is gone now: put focus on the outcome instead of losing it to the body.
    if (revoked && justRevoked) statusRef.current?.focus();
  }, [revoked, justRevoked]);

  const revoke = () =>
    run(
      async () => {
        const key = await request<PublicKey>('DELETE', `/keys/${props.apiKey.id}`);
        setOpen(false);
        setJustRevoked(true);
        props.onRevoked(key);
        notify(`Key ${key.name} revoked: every call with it is refused from now on.`);
      },
      () => setOpen(false),
    );

  return (
    <section aria-labelledby="revoke-heading" class="danger-zone">
      <h2 id="revoke-heading">Revoke</h2>
      {revoked ? (
        <p ref={statusRef} tabIndex={-1} class="revoked-note">
          This key was revoked {formatTime(props.apiKey.revokedAt)}. Every call with it is refused.
        </p>
      ) : (
        <>
          <p>Revoking refuses every call with this key's secrets at once. It cannot be undone.</p>
          <ProblemView problem={problem} focus />
          <button type="button" class="button-danger" onClick={() => setOpen(true)}>
            Revoke key…
          </button>
        </>
      )}
      <ConfirmDialog
        open={open}
        title={`Revoke key "${props.apiKey.name}"?`}
        confirmLabel="Revoke key"
        busy={busy}
        onCancel={() => setOpen(false)}
        onConfirm={() => void revoke()}
      >
        <p>
          Every call with <code>{props.apiKey.prefix}</code> (and any open old secret) will be refused with
          401 immediately. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
