import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import type { GatewayConfig } from './config.js';
import { Gateway, type GatewayDeps } from './gateway.js';

export interface RunningGateway {
  url: string;
  port: number;
  gateway: Gateway;
  /** Stops taking calls, lets those in flight finish (at most the drain time), then closes Redis. */
  close(): Promise<void>;
}

/** Starts one replica on the configured host and port (port 0 picks a free one). */
export function startGateway(config: GatewayConfig, deps: GatewayDeps = {}): Promise<RunningGateway> {
  const gateway = new Gateway(config, deps);
  gateway.start();
  const app = createApp(gateway);
  return new Promise((resolve, reject) => {
    const holder: { server?: ServerType } = {};
    const close = async () => {
      await new Promise<void>((done) => {
        const force = setTimeout(() => {
          (holder.server as { closeAllConnections?: () => void }).closeAllConnections?.();
        }, config.DCHUB_GATEWAY_DRAIN_SECONDS * 1000);
        force.unref();
        holder.server!.close(() => {
          clearTimeout(force);
          done();
        });
        (holder.server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      });
      await gateway.close();
    };
    const server = serve(
      { fetch: app.fetch, port: config.DCHUB_GATEWAY_PORT, hostname: config.DCHUB_GATEWAY_HOST },
      (info) => {
        const host = config.DCHUB_GATEWAY_HOST.includes(':')
          ? `[${config.DCHUB_GATEWAY_HOST}]`
          : config.DCHUB_GATEWAY_HOST;
        resolve({ url: `http://${host}:${info.port}`, port: info.port, gateway, close });
      },
    );
    holder.server = server;
    server.on('error', reject);
  });
}
