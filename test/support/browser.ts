import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium, headless, with the flags a closed network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css',
  '.png': 'image/png',
  '.map': 'application/json',
};

/** Extra response headers by file (the path relative to the roots, e.g. `taskpane.html`). */
export type HeadersFor = (rel: string) => Record<string, string> | undefined;

/** A static file server on 127.0.0.1 over the given roots (first match wins). */
export async function serveStatic(
  roots: string[],
  headersFor: HeadersFor = () => undefined,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    sendFile(roots, req, res, headersFor).catch(() => {
      if (!res.headersSent) res.writeHead(400);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/** Answers with the first root's file at the request's path (404 when none has it). */
async function sendFile(
  roots: string[],
  req: IncomingMessage,
  res: ServerResponse,
  headersFor: HeadersFor,
): Promise<void> {
  const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
  for (const root of roots) {
    const file = path.resolve(root, rel);
    if (!file.startsWith(path.resolve(root))) break;
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        ...headersFor(rel),
      });
      res.end(body);
      return;
    } catch {
      /* try the next root */
    }
  }
  res.writeHead(404).end('not found');
}
