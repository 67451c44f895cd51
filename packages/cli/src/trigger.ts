import { type ApiTarget, CliError, callApi, describeRefusal } from './api.ts';

/** `trigger <type>`: a real change in the test environment that emits an event of that type; returns its id. */
export async function triggerEvent(target: ApiTarget, type: string): Promise<string> {
  const res = await callApi(target, '/v2/webhooks/events:trigger', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type }),
  });
  if (!res.ok) throw new CliError(`trigger refused: ${await describeRefusal(res)}`);
  return ((await res.json()) as { eventId: string }).eventId;
}
