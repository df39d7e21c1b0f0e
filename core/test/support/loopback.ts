import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request a loopback server received. */
export interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: string;
}

/**
 * A loopback HTTP server on port 0 for tests: records every request (with its X-API-Key and body)
 * and lets `handler` answer (or not, to hang). `close` also drops open connections.
 */
export async function loopback(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => unknown,
) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        key: req.headers['x-api-key'] as string | undefined,
        body,
      });
      void handler(req, res, body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
export type Loopback = Awaited<ReturnType<typeof loopback>>;
