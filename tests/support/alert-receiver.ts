import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One alert the receiver accepted: verified with the official `standardwebhooks` library. */
export interface ReceivedAlert {
  webhookId: string;
  type: string;
  data: Record<string, unknown>;
  environment: string | null;
  body: string;
}

/**
 * What the receiver does with a request (before verifying): answer with a status, or hold it
 * open without answering (`hang`, a receiver that never finishes).
 */
export type ReceiverMode = { status: number } | 'hang';

/** A loopback alert receiver, as an integrator would write one with the `standardwebhooks` library. */
export interface AlertReceiver {
  url: string;
  /** Alerts answered 2xx whose signature verified, in arrival order. */
  verified: ReceivedAlert[];
  /** Every request, verified or not (webhook-id and what was answered). */
  requests: Array<{ webhookId: string; answered: number | 'hang'; verified: boolean }>;
  /** The secret(s) to verify with: set after the endpoint is created. */
  secret: string | null;
  /** Decides the answer to the n-th request (0-based); default 204. */
  mode: (n: number) => ReceiverMode;
  /** Types of the verified alerts. */
  types(): string[];
  close(): Promise<void>;
}

export async function startAlertReceiver(): Promise<AlertReceiver> {
  const held: ServerResponse[] = [];
  const receiver: AlertReceiver = {
    url: '',
    verified: [],
    requests: [],
    secret: null,
    mode: () => ({ status: 204 }),
    types: () => receiver.verified.map((alert) => alert.type),
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const webhookId = String(req.headers['webhook-id'] ?? '');
      const mode = receiver.mode(receiver.requests.length);
      let verified = false;
      let payload: Record<string, unknown> | null = null;
      try {
        if (receiver.secret === null) throw new Error('no secret yet');
        payload = new Webhook(receiver.secret).verify(body, {
          'webhook-id': webhookId,
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        }) as Record<string, unknown>;
        verified = true;
      } catch {
        verified = false;
      }
      receiver.requests.push({ webhookId, answered: mode === 'hang' ? 'hang' : mode.status, verified });
      if (mode === 'hang') {
        held.push(res);
        return;
      }
      if (verified && payload && mode.status < 300) {
        receiver.verified.push({
          webhookId,
          type: String(payload.type),
          data: payload.data as Record<string, unknown>,
          environment: (payload.environment as string | null) ?? null,
          body,
        });
      }
      res.statusCode = verified ? mode.status : 400;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/alerts`;
  return receiver;
}
