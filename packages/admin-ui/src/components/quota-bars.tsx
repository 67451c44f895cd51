import { request } from '../api.ts';
import type { KeyPeriodUsage, PeriodUsage, PlanQuota } from '../budget-types.ts';
import { useLoad } from '../hooks.ts';
import { currentPeriods, quotaBarOf } from '../periods.ts';
import { ProblemView } from './problem-view.tsx';

/** The billing usage of `path` (`/identities/…` or `/keys/…`) in one period. */
export async function loadPeriodUsage(path: string, period: string): Promise<PeriodUsage> {
  const answer = await request<PeriodUsage | KeyPeriodUsage>('GET', `${path}/usage`, { query: { period } });
  return 'billing' in answer ? answer.billing : answer;
}

/**
 * One meter per quota: the cost spent in its current period (read from the usage of that day, week
 * or month) against its limit. Usage reaches the store about once a second, so it may lag a call.
 */
export function QuotaBars(props: { path: string; quotas: PlanQuota[]; refresh: unknown }) {
  const periods = currentPeriods();
  const key = props.quotas.map((q) => `${q.period}:${q.limit}`).join(',');
  const usage = useLoad(
    () =>
      Promise.all(
        props.quotas.map(async (quota) => {
          const found = await loadPeriodUsage(props.path, periods[quota.period]);
          return quotaBarOf(quota.period, quota.limit, found.total.cost);
        }),
      ),
    [props.path, key, props.refresh],
  );
  if (props.quotas.length === 0) return <p class="muted">No quotas apply.</p>;
  return (
    <div class="quota-bars">
      <ProblemView problem={usage.problem} />
      {usage.data === null ? (
        <p class="muted">{usage.loading ? 'Loading quotas…' : ''}</p>
      ) : (
        usage.data.map((bar) => (
          <div class="quota-bar" key={bar.period}>
            <label for={`quota-${bar.period}`}>
              Quota per {bar.period} <span class="muted">({periods[bar.period]})</span>
            </label>
            <meter
              id={`quota-${bar.period}`}
              min={0}
              max={bar.limit}
              value={Math.min(bar.used, bar.limit)}
              low={bar.limit * 0.75}
              high={bar.limit * 0.9}
              optimum={0}
              aria-describedby={`quota-${bar.period}-text`}
            />
            <p id={`quota-${bar.period}-text`} class="quota-text">
              {bar.text}
            </p>
          </div>
        ))
      )}
    </div>
  );
}
