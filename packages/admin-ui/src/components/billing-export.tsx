import { apiUrl } from '../api.ts';
import { recentMonths } from '../periods.ts';

/** Download links of the billing export, CSV and JSON lines, for this month and the eleven before. */
export function BillingExport() {
  return (
    <section aria-labelledby="export-heading">
      <h2 id="export-heading">Billing export</h2>
      <p class="hint">
        Calls and cost of every identity (and every key without one) by outcome, one file per month. A closed
        month's export is the same every time.
      </p>
      <ul class="export-list">
        {recentMonths(12).map((period) => (
          <li key={period}>
            <span class="export-month">{period}</span>{' '}
            <a
              href={apiUrl('/usage/export', { period, format: 'csv' })}
              download={`keygate-usage-${period}.csv`}
            >
              CSV<span class="visually-hidden"> export of {period}</span>
            </a>{' '}
            <a
              href={apiUrl('/usage/export', { period, format: 'jsonl' })}
              download={`keygate-usage-${period}.jsonl`}
            >
              JSON lines<span class="visually-hidden"> export of {period}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
