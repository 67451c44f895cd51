import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { useApp } from '../context.ts';
import { formatAgo } from '../format.ts';
import { useAction, useOneTime } from '../hooks.ts';
import { rotationState } from '../rotation.ts';
import type { KeyWithSecret, PublicKey, PublicSecret } from '../types.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { ProblemView } from './problem-view.tsx';
import { RotateForm } from './rotate-form.tsx';
import { RotationSummary } from './rotation-summary.tsx';
import { SecretReveal } from './secret-reveal.tsx';
import { SecretsTable } from './secrets-table.tsx';

/** The key's secrets with calls per secret, rotation (new secret shown once) and closing the old secret. */
export function SecretsPanel(props: { apiKey: PublicKey; onChange: (key: PublicKey) => void }) {
  const { notify } = useApp();
  const { apiKey } = props;
  const [newSecret, setNewSecret] = useOneTime<string>();
  const [closing, setClosing] = useState<PublicSecret | null>(null);
  const { busy, problem, run } = useAction();
  const rotation = rotationState(apiKey);

  const rotated = (result: KeyWithSecret) => {
    const { secret, ...key } = result;
    setNewSecret(secret);
    props.onChange(key);
    notify(`Key rotated: new secret ${key.prefix} issued.`);
  };

  const close = (secret: PublicSecret) =>
    run(
      async () => {
        const key = await request<PublicKey>('POST', `/keys/${apiKey.id}/close-old-secret`, {
          body: { secretId: secret.id },
        });
        setClosing(null);
        props.onChange(key);
        notify(`Old secret ${secret.prefix} closed: it no longer authenticates.`);
      },
      () => setClosing(null),
    );

  return (
    <div class="secrets-panel">
      {newSecret ? <SecretReveal secret={newSecret} title="New secret issued" /> : null}
      <ProblemView problem={problem} focus />
      <RotationSummary apiKey={apiKey} />
      <SecretsTable
        apiKey={apiKey}
        closable={new Set(rotation?.old.map((old) => old.id))}
        busy={busy}
        onClose={(secret) => (rotation?.safeToClose ? void close(secret) : setClosing(secret))}
      />
      {apiKey.status === 'active' ? <RotateForm apiKey={apiKey} onRotated={rotated} /> : null}
      <ConfirmDialog
        open={closing !== null}
        title="Close a secret that is still in use?"
        confirmLabel="Close old secret"
        busy={busy}
        onCancel={() => setClosing(null)}
        onConfirm={() => closing && void close(closing)}
      >
        <p>
          <code>{closing?.prefix}</code> saw traffic {formatAgo(closing?.lastCallAt)}. Clients still using it
          will get 401 from now on.
        </p>
      </ConfirmDialog>
    </div>
  );
}
