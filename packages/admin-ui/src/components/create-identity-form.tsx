import { useState } from 'preact/hooks';
import { request } from '../api.ts';
import { parseMeta, toIdentityRequest } from '../budget-form.ts';
import type { Identity, Plan } from '../budget-types.ts';
import { useAction } from '../hooks.ts';
import { ENVIRONMENTS, type Environment } from '../types.ts';
import { SelectField } from './form-fields.tsx';
import { ProblemView } from './problem-view.tsx';

const FIELDS: Record<string, string> = {
  '/externalId': 'identity-external-id',
  '/environment': 'identity-environment',
  '/planId': 'identity-plan',
  '/meta': 'identity-meta',
  '/credits': 'identity-credits',
  '/credits/remaining': 'identity-credits',
  '/credits/lowAt': 'identity-low-at',
};

/** A new identity: external id, environment, plan, metadata (JSON), starting credits and their alert level. */
export function CreateIdentityForm(props: { plans: Plan[]; onCreated: (identity: Identity) => void }) {
  const [externalId, setExternalId] = useState('');
  const [environment, setEnvironment] = useState<Environment>('live');
  const [planId, setPlanId] = useState('');
  const [meta, setMeta] = useState('');
  const [credits, setCredits] = useState('');
  const [lowAt, setLowAt] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const parsed = parseMeta(meta);
    if (parsed.problem) return action.setProblem(parsed.problem);
    void action.run(async () => {
      const body = toIdentityRequest({
        externalId,
        environment,
        planId,
        meta: parsed.meta,
        credits,
        lowAt,
      });
      props.onCreated(await request<Identity>('POST', '/identities', { body }));
    });
  };
  return (
    <form class="form form-wide" id="new-identity" onSubmit={submit} noValidate>
      <ProblemView problem={action.problem} focus fields={FIELDS} />
      <div class="field">
        <label for="identity-external-id">External id (your customer's id)</label>
        <input
          id="identity-external-id"
          required
          maxLength={255}
          value={externalId}
          onInput={(e) => setExternalId(e.currentTarget.value)}
        />
      </div>
      <SelectField
        id="identity-environment"
        label="Environment"
        value={environment}
        options={ENVIRONMENTS}
        onChange={(value) => setEnvironment(value as Environment)}
      />
      <SelectField
        id="identity-plan"
        label="Plan"
        value={planId}
        emptyLabel="No plan"
        options={props.plans.map((plan) => plan.id)}
        labelOf={(id) => props.plans.find((plan) => plan.id === id)?.name ?? id}
        onChange={setPlanId}
      />
      <div class="field">
        <label for="identity-meta">Metadata (a JSON object, optional)</label>
        <textarea
          id="identity-meta"
          rows={3}
          placeholder='{"tier": "gold"}'
          value={meta}
          onInput={(e) => setMeta(e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="identity-credits">Starting credits (optional)</label>
        <input
          id="identity-credits"
          inputMode="numeric"
          value={credits}
          onInput={(e) => setCredits(e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="identity-low-at">Send credits.low below (optional)</label>
        <input
          id="identity-low-at"
          inputMode="numeric"
          value={lowAt}
          onInput={(e) => setLowAt(e.currentTarget.value)}
        />
      </div>
      <button type="submit" class="button-primary" disabled={action.busy}>
        {action.busy ? 'Creating…' : 'Create identity'}
      </button>
    </form>
  );
}
