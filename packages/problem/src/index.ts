import type { ServerResponse } from 'node:http';

/** The media type of every error body (RFC 9457). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Base of every keygate problem `type` URI; the code, in kebab-case, follows. */
export const PROBLEM_TYPE_BASE = 'https://keygate.dev/problems/';

/** An RFC 9457 problem details body with keygate's `code` extension member. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance?: string;
  [extension: string]: unknown;
}

/** One entry of the `errors` extension member for validation problems. */
export interface ProblemFieldError {
  detail: string;
  pointer: string;
}

/** Turns a stable UPPER_SNAKE code into its problem `type` URI. */
export function problemType(code: string): string {
  return PROBLEM_TYPE_BASE + code.toLowerCase().replaceAll('_', '-');
}

/** Builds a problem body; extension members are copied as given. */
export function buildProblem(
  code: string,
  status: number,
  title: string,
  detail: string,
  extensions: Record<string, unknown> = {},
): Problem {
  return { type: problemType(code), title, status, detail, code, ...extensions };
}

/** Writes a problem body to a plain node:http (or Express) response. Extra headers are set first. */
export function writeProblem(
  res: ServerResponse,
  problem: Problem,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(problem);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.statusCode = problem.status;
  res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('Cache-Control', 'no-store');
  res.end(body);
}

/**
 * Converts zod-style issues ({path, message}) into `errors` entries with JSON pointers,
 * so a client can show each message beside the field it concerns.
 */
export function fieldErrors(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  root = '',
): ProblemFieldError[] {
  const escapePart = (part: PropertyKey) => String(part).replaceAll('~', '~0').replaceAll('/', '~1');
  return issues.map((issue) => ({
    detail: issue.message,
    pointer: root + issue.path.map((part) => `/${escapePart(part)}`).join(''),
  }));
}
