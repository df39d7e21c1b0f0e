// A stand-in Jupyter server whose relay routes are answered by core's relay and the engine's quota
// answer, as the server extension hands them to the engine (handlers.py).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServerConnection } from '@jupyterlab/services';
import { relayRequest } from '../../core/src/engine/relay';
import { quotaAnswer } from '../../core/src/engine/rpc';
import type { Session } from '../../core/src/engine/sessions';

/**
 * A Jupyter server with the extension's routes (given the relay's session) or without them (`null`: no server
 * extension).
 */
export async function jupyterServer(relay: Session | null, baseUrl: string) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => void answer(req, res, body));
  });
  /** Each route as the server extension answers it (handlers.py). */
  async function answer(req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://jupyter');
    const reply = (
      status: number,
      text: string,
      headers: Record<string, string> = { 'content-type': 'application/json' }
    ) => {
      res.writeHead(status, headers);
      res.end(text);
    };
    if (!relay) return reply(404, '{}');
    if (url.pathname === '/dchub/config')
      return reply(200, JSON.stringify({ proxy: true, has_key: true, base_url: baseUrl, engine: true }));
    if (url.pathname === '/dchub/quota') return reply(200, JSON.stringify(quotaAnswer(await relay.ledger.snapshot())));
    if (!url.pathname.startsWith('/dchub/proxy/')) return reply(404, '{}');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const a = await relayRequest(
      relay,
      {
        method: req.method ?? 'GET',
        path: url.pathname.slice('/dchub/proxy/'.length),
        query: url.search.slice(1),
        headers,
        body: body || undefined
      },
      new AbortController().signal
    );
    reply(a.status, a.body, a.headers);
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    settings: ServerConnection.makeSettings({ baseUrl: url, wsUrl: url.replace('http', 'ws') }),
    close: () => new Promise<void>((r) => server.close(() => r()))
  };
}
