import { CreateKeyForm } from '../components/create-key-form.tsx';
import { IpList, ScopeList } from '../components/key-badges.tsx';
import { Link } from '../components/link.tsx';
import { PageHeading } from '../components/page-heading.tsx';
import { SecretReveal } from '../components/secret-reveal.tsx';
import { useOneTime } from '../hooks.ts';
import type { KeyWithSecret } from '../types.ts';

/** Create a key; afterwards its secret is shown once, from this component's state only. */
export function CreateKeyPage() {
  const [created, setCreated] = useOneTime<KeyWithSecret>();
  return (
    <section>
      <PageHeading title="New API key" />
      {created ? (
        <>
          <SecretReveal secret={created.secret} title={`Key "${created.name}" created`} />
          <dl class="details">
            <dt>Prefix</dt>
            <dd>
              <code>{created.prefix}</code>
            </dd>
            <dt>Environment</dt>
            <dd>{created.environment}</dd>
            <dt>Scopes</dt>
            <dd>
              <ScopeList scopes={created.scopes} />
            </dd>
            <dt>IP allowlist</dt>
            <dd>
              <IpList entries={created.ipAllowlist} />
            </dd>
            <dt>Expiry</dt>
            <dd>{created.expiresAt ?? 'never'}</dd>
          </dl>
          <p class="page-links">
            <Link to={`/keys/${created.id}`}>Go to the key page</Link>
            <button type="button" class="button-quiet" onClick={() => setCreated(null)}>
              Create another key
            </button>
          </p>
        </>
      ) : (
        <CreateKeyForm onCreated={setCreated} />
      )}
    </section>
  );
}
