import { formatAgo, formatCount } from '../format.ts';
import { rotationState } from '../rotation.ts';
import type { PublicKey, PublicSecret } from '../types.ts';

function SecretLine(props: { label: string; secret: PublicSecret }) {
  const { secret } = props;
  return (
    <li>
      <span class="secret-role">{props.label}</span> <code>{secret.prefix}</code>:{' '}
      <strong class="call-count">{formatCount(secret.callCount)}</strong>{' '}
      {secret.callCount === 1 ? 'call' : 'calls'}, last call {formatAgo(secret.lastCallAt)}
      {secret.closesAt ? <span class="muted">, closes {formatAgo(secret.closesAt)}</span> : null}
    </li>
  );
}

/** During a rotation: calls per secret, when the old one last saw traffic, and whether it is safe to close. */
export function RotationSummary(props: { apiKey: PublicKey }) {
  const state = rotationState(props.apiKey);
  if (!state) return null;
  return (
    <div class="rotation-summary">
      <ul class="secret-lines">
        <SecretLine label="New" secret={state.current} />
        {state.old.map((secret) => (
          <SecretLine key={secret.id} label="Old" secret={secret} />
        ))}
      </ul>
      <p class={state.safeToClose ? 'hint hint-safe' : 'hint hint-busy'}>
        <span class="badge">{state.safeToClose ? 'Safe to close' : 'Old secret in use'}</span> {state.hint}
      </p>
    </div>
  );
}
