import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  /** The raw body as sent. */
  body: string;
  /** webhook-id */
  id: string;
  /** The parsed envelope. */
  payload: {
    id: string;
    type: string;
    createdAt: string;
    environment: string;
    data: Record<string, unknown>;
  };
  /** 1-based number of this request among all the receiver got. */
  n: number;
}

/** What to answer: a status (default 200), headers, a body, after a delay; or never (hang). */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
  hang?: boolean;
}

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  /** Requests that are being answered right now (a hanging one stays here until close). */
  readonly pending: number;
  /** Changes the reply for later requests. */
  setReply(reply: (request: ReceivedRequest) => Reply): void;
  close(): Promise<void>;
}

/** A real HTTP webhook receiver on 127.0.0.1, port 0, recording every request. */
export async function startReceiver(
  reply: (request: ReceivedRequest) => Reply = () => ({}),
): Promise<Receiver> {
  let answer = reply;
  const received: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let pending = 0;
  const server = createServer(async (req, res) => {
    pending++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const request: ReceivedRequest = {
      headers: req.headers,
      body,
      id: String(req.headers['webhook-id']),
      payload: JSON.parse(body),
      n: received.length + 1,
    };
    received.push(request);
    const r = answer(request);
    if (r.hang) {
      hanging.add(res);
      return;
    }
    if (r.delayMs) await new Promise((resolve) => setTimeout(resolve, r.delayMs));
    pending--;
    res.writeHead(r.status ?? 200, r.headers ?? {});
    res.end(r.body ?? 'ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    get pending() {
      return pending;
    },
    setReply(next) {
      answer = next;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Polls `condition` every 10 ms until it holds; fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
