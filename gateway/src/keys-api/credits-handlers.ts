import {
  CreditsOperationSchema,
  KeyUsageQuerySchema,
  PeriodUsageQuerySchema,
  UsageExportQuerySchema,
} from '@keygate/contracts/gateway';
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { parseInput, validationError } from '../keys/key-input.ts';
import type { KeyService } from '../keys/key-service.ts';
import type { BudgetService, ExportRow } from '../plans/budget-service.ts';
import { operationIdOf } from './idempotency.ts';
import type { Caller } from './key-handlers.ts';
import { idOf, queryOf } from './key-handlers.ts';

/** What the credits and billing-usage handlers need from the API that mounts them. */
export interface BudgetHandlerDeps {
  budgetService: BudgetService;
  /** The keys' traffic usage, which a key's usage of a period carries beside its billing (keys only). */
  keyService?: Pick<KeyService, 'getUsage'>;
  callerOf(res: Response): Caller;
  /** Body parsing and Idempotency-Key, as the API's other POSTs. */
  bodySteps: RequestHandler[];
}

/**
 * `GET|POST {item}/credits` and `GET {item}/usage?period=…` of keys (`kind: 'key'`) or identities,
 * mounted at `item` (e.g. `/:id`). A usage query without `period` goes on to the next handler (the
 * keys' traffic usage with `from`/`to`).
 */
export function addBudgetHandlers(
  router: Router,
  item: string,
  kind: 'key' | 'identity',
  deps: BudgetHandlerDeps,
): void {
  const { budgetService, callerOf } = deps;
  router.get(`${item}/credits`, async (req, res) => {
    const { actor } = callerOf(res);
    res.json(
      kind === 'key'
        ? await budgetService.keyCredits(actor, idOf(req))
        : await budgetService.identityCredits(actor, idOf(req)),
    );
  });
  router.post(`${item}/credits`, ...deps.bodySteps, async (req, res) => {
    const { actor } = callerOf(res);
    const operation = parseInput(CreditsOperationSchema, req.body);
    const operationId = operationIdOf(res);
    res.json(
      kind === 'key'
        ? await budgetService.changeKeyCredits(actor, idOf(req), operation, operationId)
        : await budgetService.changeIdentityCredits(actor, idOf(req), operation, operationId),
    );
  });
  router.get(`${item}/usage`, async (req: Request, res: Response, next: NextFunction) => {
    if (kind === 'key' && req.query.period === undefined) return next();
    const { actor } = callerOf(res);
    if (kind === 'identity') {
      const { period } = queryOf(PeriodUsageQuerySchema, req);
      return res.json(await budgetService.identityUsage(actor, idOf(req), period));
    }
    const { period, from, to } = queryOf(KeyUsageQuerySchema, req);
    if (period === undefined || from !== undefined || to !== undefined)
      throw validationError([{ detail: 'give either period, or from and to', pointer: '/period' }]);
    const range = { from: Date.parse(`${period.from}T00:00:00Z`), to: Date.parse(`${period.to}T00:00:00Z`) };
    const [traffic, billing] = await Promise.all([
      deps.keyService!.getUsage(actor, idOf(req), range),
      budgetService.keyUsage(actor, idOf(req), period),
    ]);
    res.json({ ...traffic, billing });
  });
}

const CSV_HEADER = 'period,subject_type,subject_id,external_id,environment,outcome,calls,cost';

/**
 * A CSV field: quoted (quotes doubled) when it holds a comma, a quote or a line break; text that a
 * spreadsheet would run as a formula (an integrator's external id starting with `=`, `+`, `-`, `@`)
 * is prefixed with `'`, as OWASP advises for CSV exports.
 */
function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Renders export rows, one per line, in their (stable) order. */
export function renderExport(rows: readonly ExportRow[], format: 'csv' | 'jsonl'): string {
  if (format === 'jsonl') return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
  const lines = rows.map((row) =>
    [
      row.period,
      row.subjectType,
      row.subjectId,
      row.externalId,
      row.environment,
      row.outcome,
      row.calls,
      row.cost,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[CSV_HEADER, ...lines].join('\r\n')}\r\n`;
}

/** `GET /export?period&format=csv|jsonl`: the billing export of one period (mounted at `/v2/auth/usage`). */
export function addUsageExportHandler(
  router: Router,
  deps: Pick<BudgetHandlerDeps, 'budgetService' | 'callerOf'>,
) {
  router.get('/export', async (req, res) => {
    const { period, format } = queryOf(UsageExportQuerySchema, req);
    const rows = await deps.budgetService.exportUsage(deps.callerOf(res).actor, period);
    // The file name first: attachment() would set a type from its extension.
    res.attachment(`keygate-usage-${period.period}.${format}`);
    res.type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    res.send(renderExport(rows, format));
  });
}
