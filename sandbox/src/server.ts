import { serve, type ServerType } from '@hono/node-server';
import { createApp, createContext, type SandboxOptions } from './app.js';
import type { SandboxContext } from './context.js';

export interface RunningSandbox {
  url: string;
  port: number;
  ctx: SandboxContext;
  close(): Promise<void>;
}

/** Starts the sandbox on 127.0.0.1 (port 0 picks a free one). */
export function startSandbox(opts: SandboxOptions & { port?: number } = {}): Promise<RunningSandbox> {
  const ctx = createContext(opts);
  const app = createApp(ctx);
  return new Promise((resolve, reject) => {
    let server: ServerType;
    try {
      server = serve({ fetch: app.fetch, port: opts.port ?? 8787, hostname: '127.0.0.1' }, (info) => {
        resolve({
          url: `http://127.0.0.1:${info.port}`,
          port: info.port,
          ctx,
          close: () => new Promise<void>((res) => server.close(() => res())),
        });
      });
      server.on('error', reject);
    } catch (err) {
      reject(err);
    }
  });
}
