import { serve, type ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import { createApp } from './app.js';
import type { GatewayConfig } from './config.js';
import { Gateway, type GatewayDeps } from './gateway.js';
import { closeUpstreamTools } from './mcp/upstream.js';

export interface RunningGateway {
  url: string;
  port: number;
  gateway: Gateway;
  /**
   * Stops gracefully: readiness fails first, the listener closes, calls in flight finish (at most
   * DCHUB_GATEWAY_DRAIN_SECONDS), then the remaining connections close and Redis is closed (after
   * writing back what was spent without it, if it can).
   */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Answers not yet fully written, counted by the HTTP server (a handler may be done before its answer is sent). */
function countOpenAnswers(server: Server): () => number {
  let open = 0;
  server.on('request', (_req, res) => {
    open++;
    res.once('close', () => open--);
  });
  return () => open;
}

/** Waits until every answer is written, or the drain time is over; whether they all were. */
async function drained(open: () => number, seconds: number): Promise<boolean> {
  const until = Date.now() + seconds * 1000;
  while (open() > 0 && Date.now() < until) await sleep(25);
  return open() === 0;
}

async function shutDown(server: Server, gateway: Gateway, open: () => number): Promise<void> {
  const seconds = gateway.config.DCHUB_GATEWAY_DRAIN_SECONDS;
  gateway.stopping = true;
  gateway.log.info({ in_flight: open(), drain_s: seconds }, 'stopping: readiness fails, draining calls');
  const closed = new Promise<void>((done) => server.close(() => done()));
  server.closeIdleConnections();
  const all = await drained(open, seconds);
  // Kept-alive sockets of finished calls, and whatever outlived the drain time, close now.
  server.closeAllConnections();
  await closed;
  await closeUpstreamTools(gateway.shared).catch(() => undefined);
  await closeUpstreamTools(gateway.local).catch(() => undefined);
  await gateway.close();
  gateway.log.info({ drained: all, ...(all ? {} : { cut_short: open() }) }, 'stopped');
  gateway.log.flush();
}

/** Starts one replica on the configured host and port (port 0 picks a free one). */
export function startGateway(config: GatewayConfig, deps: GatewayDeps = {}): Promise<RunningGateway> {
  const gateway = new Gateway(config, deps);
  gateway.start();
  const app = createApp(gateway);
  return new Promise((resolve, reject) => {
    let closing: Promise<void> | undefined;
    let open: () => number = () => 0;
    const server: ServerType = serve(
      { fetch: app.fetch, port: config.DCHUB_GATEWAY_PORT, hostname: config.DCHUB_GATEWAY_HOST },
      (info) => {
        const host = config.DCHUB_GATEWAY_HOST.includes(':')
          ? `[${config.DCHUB_GATEWAY_HOST}]`
          : config.DCHUB_GATEWAY_HOST;
        resolve({
          url: `http://${host}:${info.port}`,
          port: info.port,
          gateway,
          close: () => (closing ??= shutDown(server as Server, gateway, open)),
        });
      },
    );
    open = countOpenAnswers(server as Server);
    server.on('error', reject);
  });
}
