import { serve, type ServerType } from '@hono/node-server';
import type { Duplex } from 'node:stream';
import { createApp, createContext, MAX_URL_BYTES, type SandboxOptions } from './app.js';
import type { SandboxContext } from './context.js';

/** Request line and headers together at most this many bytes (URLs past MAX_URL_BYTES get a JSON 414 first). */
export const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Node's parser refuses a request line or headers past maxHeaderSize with an empty 431; answer
 * JSON instead, 414 when the request line alone is too long.
 */
function answerOversizedRequest(err: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  if (!socket.writable) return;
  if (err.code !== 'HPE_HEADER_OVERFLOW') {
    socket.end(
      'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":"bad_request: the request is not valid HTTP/1.1"}',
    );
    return;
  }
  const firstLine =
    err.rawPacket
      ?.subarray(0, MAX_URL_BYTES + 64)
      .toString('latin1')
      .split('\r\n', 1)[0] ?? '';
  const urlTooLong = firstLine.length > MAX_URL_BYTES || !err.rawPacket?.includes('\r\n');
  const [status, body] = urlTooLong
    ? ['414 URI Too Long', `{"error":"url: the URL is longer than ${MAX_URL_BYTES} bytes (the limit)","param":"url"}`]
    : [
        '431 Request Header Fields Too Large',
        `{"error":"headers: the request headers are larger than ${MAX_HEADER_BYTES} bytes (the limit)","param":"headers"}`,
      ];
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

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
      server = serve(
        {
          fetch: app.fetch,
          port: opts.port ?? 8787,
          hostname: '127.0.0.1',
          serverOptions: { maxHeaderSize: MAX_HEADER_BYTES },
        },
        (info) => {
          resolve({
            url: `http://127.0.0.1:${info.port}`,
            port: info.port,
            ctx,
            close: () => new Promise<void>((res) => server.close(() => res())),
          });
        },
      );
      server.on('error', reject);
      server.on('clientError', answerOversizedRequest);
    } catch (err) {
      reject(err);
    }
  });
}
