import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ReceivedSpan } from './otlp-receiver.ts';

/** OTLP span kinds and status code. */
export const SERVER = 2;
export const CLIENT = 3;
export const ERROR = 2;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A caller's own trace context: a fresh trace id and parent span id, sampled. */
export function callerContext(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** A fresh token of the right shape that no key has. */
export const unknownToken = () => `kg_test_${hex(6)}_${hex(24)}`;

/** The JSON log lines of a process's output that name `traceId` (access lines, commerce's request lines). */
export const logLinesOfTrace = (output: string, traceId: string) =>
  output
    .split('\n')
    .filter((line) => line.includes(traceId))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The spans of one trace. */
export const inTrace = (spans: ReceivedSpan[], traceId: string) =>
  spans.filter((span) => span.traceId === traceId);

/** The one span matching, failing with the list of spans otherwise. */
export function one(
  spans: ReceivedSpan[],
  what: string,
  match: (span: ReceivedSpan) => boolean,
): ReceivedSpan {
  const found = spans.filter(match);
  assert.equal(found.length, 1, `${what}: ${JSON.stringify(spans.map((s) => [s.service, s.name]))}`);
  return found[0]!;
}
