import { CALL_OUTCOMES, type PeriodUsage } from '../budget-types.ts';
import { formatCount } from '../format.ts';
import { DataTable } from './data-table.tsx';

/** Calls and spent cost of one period by outcome, then the total (outcomes without calls left out). */
export function UsageOutcomes(props: { usage: PeriodUsage; caption: string }) {
  const { usage } = props;
  const rows = CALL_OUTCOMES.flatMap((outcome) => {
    const figures = usage.outcomes[outcome];
    return figures ? [{ outcome, ...figures }] : [];
  });
  if (rows.length === 0) return <p class="muted">No calls in {usage.period}.</p>;
  return (
    <DataTable class="outcomes-table" caption={props.caption} columns={['Outcome', 'Calls', 'Cost']}>
      {rows.map((row) => (
        <tr key={row.outcome}>
          <th scope="row">
            <code>{row.outcome}</code>
          </th>
          <td class="num">{formatCount(row.calls)}</td>
          <td class="num">{formatCount(row.cost)}</td>
        </tr>
      ))}
      <tr class="total-row">
        <th scope="row">Total</th>
        <td class="num">{formatCount(usage.total.calls)}</td>
        <td class="num">{formatCount(usage.total.cost)}</td>
      </tr>
    </DataTable>
  );
}
