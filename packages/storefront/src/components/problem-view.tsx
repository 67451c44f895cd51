import type { KeygateProblem } from '@keygate/client';
import { ShopLink } from './shop-link.tsx';

/**
 * What a visitor sees when the API refuses: its `detail` (written for people), never a stack.
 * A 429 that persisted after one wait shows as "busy".
 */
export function ProblemView({
  problem,
  busy,
  backHref = '/',
}: {
  problem: KeygateProblem;
  busy: boolean;
  backHref?: string;
}) {
  if (busy) {
    return (
      <section className="problem" aria-labelledby="problem-title">
        <h1 id="problem-title">The shop is busy</h1>
        <p>Too many requests are arriving right now. Please wait a moment and try again.</p>
        {typeof problem.retryAfter === 'number' && <p>Try again in about {problem.retryAfter} seconds.</p>}
        <p>
          <ShopLink href={backHref}>Try again</ShopLink>
        </p>
      </section>
    );
  }
  return (
    <section className="problem" aria-labelledby="problem-title">
      <h1 id="problem-title">{problem.status === 404 ? 'Not found' : 'Something went wrong'}</h1>
      <p className="problem-detail">{problem.detail}</p>
      <p className="muted">
        {problem.title} ({problem.code}, HTTP {problem.status})
      </p>
      <p>
        <ShopLink href={backHref}>Back to the shop</ShopLink>
      </p>
    </section>
  );
}
