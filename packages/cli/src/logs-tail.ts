import { setTimeout as sleep } from 'node:timers/promises';
import { type ApiTarget, CliError, callApi, describeRefusal } from './api.ts';

interface LogLine {
  id: string;
  at: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
}

interface KeySummary {
  id: string;
  prefix: string;
}

export interface LogsTailOptions {
  target: ApiTarget;
  /** The key whose log is tailed (default: the CLI's own key, found by its prefix). */
  keyId?: string;
  /** `4xx`, `5xx`, `2xx`…, or one status such as `429`; null shows every line. */
  status: string | null;
  out: (line: string) => void;
  signal?: AbortSignal;
  /** How often the log is read (ms, default 1000). */
  pollMs?: number;
}

/** Whether a status passes a `--status` filter (`4xx` or `429`). */
export function matchesStatus(status: number, filter: string | null): boolean {
  if (filter === null) return true;
  if (/^[1-5]xx$/.test(filter)) return Math.floor(status / 100) === Number(filter[0]);
  return String(status) === filter;
}

/** The id of the key the token belongs to: the listed key whose prefix the token starts with. */
async function ownKeyId(target: ApiTarget): Promise<string> {
  const res = await callApi(target, '/v2/auth/keys?limit=100');
  if (!res.ok) {
    throw new CliError(
      `cannot find this key's id (${await describeRefusal(res)}): pass --key-id, with a key holding auth:rw`,
    );
  }
  const { items } = (await res.json()) as { items: KeySummary[] };
  const own = items.find((key) => target.apiKey.startsWith(key.prefix));
  if (!own) throw new CliError('this key is not among the keys it can list: pass --key-id');
  return own.id;
}

/**
 * `logs tail [--status 4xx]`: the key's API log as it happens, one line per call, oldest first.
 * Reading a key's log needs `auth:rw` in its environment (the key's own, or another test key's).
 */
export async function tailLogs(options: LogsTailOptions): Promise<void> {
  const { target, out, signal } = options;
  const keyId = options.keyId ?? (await ownKeyId(target));
  const seen = new Set<string>();
  while (!signal?.aborted) {
    const res = await callApi(target, `/v2/auth/keys/${encodeURIComponent(keyId)}/logs?limit=100`, {
      signal,
    }).catch((error: unknown) => {
      if (signal?.aborted) return null;
      throw error;
    });
    if (res === null) return;
    if (!res.ok) throw new CliError(`the log was refused: ${await describeRefusal(res)}`);
    const { items } = (await res.json()) as { items: LogLine[] };
    // Newest first from the API: shown oldest first; what was there at start is shown too.
    for (const line of items.reverse()) {
      if (seen.has(line.id)) continue;
      seen.add(line.id);
      if (!matchesStatus(line.status, options.status)) continue;
      out(`${line.at}  ${line.status}  ${line.method} ${line.path}  ${line.latencyMs} ms  ${line.id}`);
    }
    await sleep(options.pollMs ?? 1000, undefined, { signal }).catch(() => {});
  }
}
