import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';

export interface RawExchange {
  status: number;
  /** Lower-cased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: string;
}

/** The app listening on an ephemeral port of 127.0.0.1, and a way to close it again. */
export async function listenOnce(app: {
  listen(port: number, host: string, callback: () => void): Server;
}): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The first complete response in `text` (Content-Length framed), else null. */
function parseResponse(text: string): RawExchange | null {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = text.slice(end + 4);
  if (Buffer.byteLength(body) < length) return null;
  return { status: Number(statusLine!.split(' ')[1]), headers, body: body.slice(0, length) };
}

/**
 * Writes `text` byte for byte to a new connection and resolves with the first complete response
 * (then closes the connection); rejects when the connection closes before one arrived.
 */
export function exchangeRaw(port: number, text: string): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text, 'latin1'));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      const response = parseResponse(received);
      if (!response) return;
      socket.destroy();
      resolve(response);
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`connection closed; received ${JSON.stringify(received)}`)));
  });
}
