import { useState } from 'preact/hooks';
import { type Problem, request } from '../api.ts';
import { useApp } from '../context.ts';
import { formatAgo, formatCount, formatTime } from '../format.ts';
import { useOneTime } from '../hooks.ts';
import { rotationState } from '../rotation.ts';
import type { KeyWithSecret, PublicKey, PublicSecret } from '../types.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { ProblemView, toProblem } from './problem-view.tsx';
import { RotateForm } from './rotate-form.tsx';
import { RotationSummary } from './rotation-summary.tsx';
import { SecretReveal } from './secret-reveal.tsx';

function secretState(secret: PublicSecret): string {
  if (secret.usable) return secret.closesAt ? 'open (overlap)' : 'open';
  return secret.closedReason ? `closed (${secret.closedReason.replace('_', ' ')})` : 'closed';
}

/** The key's secrets with calls per secret, rotation (new secret shown once) and closing the old secret. */
export function SecretsPanel(props: { apiKey: PublicKey; onChange: (key: PublicKey) => void }) {
  const { notify } = useApp();
  const { apiKey } = props;
  const [newSecret, setNewSecret] = useOneTime<string>();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [closing, setClosing] = useState<PublicSecret | null>(null);
  const [busy, setBusy] = useState(false);
  const rotation = rotationState(apiKey);

  const rotated = (result: KeyWithSecret) => {
    const { secret, ...key } = result;
    setNewSecret(secret);
    props.onChange(key);
    notify(`Key rotated: new secret ${key.prefix} issued.`);
  };

  const close = async (secret: PublicSecret) => {
    setBusy(true);
    setProblem(null);
    try {
      const key = await request<PublicKey>('POST', `/keys/${apiKey.id}/close-old-secret`, {
        body: { secretId: secret.id },
      });
      setClosing(null);
      props.onChange(key);
      notify(`Old secret ${secret.prefix} closed: it no longer authenticates.`);
    } catch (error) {
      setClosing(null);
      setProblem(toProblem(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="secrets-panel">
      {newSecret ? <SecretReveal secret={newSecret} title="New secret issued" /> : null}
      <ProblemView problem={problem} focus />
      <RotationSummary apiKey={apiKey} />
      <div class="table-wrap">
        <table class="secrets-table">
          <caption class="visually-hidden">Secrets of {apiKey.name}</caption>
          <thead>
            <tr>
              <th scope="col">Secret</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
              <th scope="col">Closes / closed</th>
              <th scope="col">Calls</th>
              <th scope="col">Last call</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {apiKey.rotation.secrets.map((secret) => (
              <tr key={secret.id} data-secret-prefix={secret.prefix}>
                <th scope="row">
                  <code>{secret.prefix}</code>
                  {secret.prefix === apiKey.prefix ? <span class="badge">current</span> : null}
                </th>
                <td>{secretState(secret)}</td>
                <td>{formatTime(secret.createdAt)}</td>
                <td>{formatTime(secret.closedAt ?? secret.closesAt)}</td>
                <td class="num secret-calls">{formatCount(secret.callCount)}</td>
                <td title={formatTime(secret.lastCallAt)}>{formatAgo(secret.lastCallAt)}</td>
                <td>
                  {rotation?.old.some((old) => old.id === secret.id) ? (
                    <button
                      type="button"
                      class="button-danger-quiet"
                      disabled={busy}
                      onClick={() => (rotation.safeToClose ? void close(secret) : setClosing(secret))}
                    >
                      Close old secret<span class="visually-hidden"> {secret.prefix}</span>
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
