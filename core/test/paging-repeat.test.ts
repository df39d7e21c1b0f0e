import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { DchubClient, fetchBriefsAllPages, fetchMeta, parseCsv } from '../src/index.js';
import { cliRunner } from './support/cli.js';

/**
 * Issue 20: a service whose later pages repeat rows already read (it ignores `offset`) never makes a
 * row appear twice — in the CLI's CSV, the JSON pages every host reads — and says so in one line;
 * a page that adds nothing new stops the paging.
 */
let sb: RunningSandbox;
let proxy: Server;
let proxyUrl = '';
let proxy50: Server;
let proxy50Url = '';

/** A proxy before the sandbox that rewrites each request's URL. */
async function rewritingProxy(rewrite: (u: URL) => void): Promise<[Server, string]> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    rewrite(url);
    void fetch(`${sb.url}${url.pathname}${url.search}`, {
      headers: { 'x-api-key': String(req.headers['x-api-key'] ?? '') },
    }).then(async (up) => {
      const out: Record<string, string> = {};
      up.headers.forEach((v, k) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
      });
      res.writeHead(up.status, out).end(Buffer.from(await up.arrayBuffer()));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return [server, `http://127.0.0.1:${(server.address() as { port: number }).port}`];
}
let dir: string;
const ENT = 'repeat-enterprise-key';

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 'repeat', now: '2026-11-21T12:00:00Z', keys: `enterprise=${ENT}` });
  dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-repeat-'));
  // Every request with `offset` dropped: each page starts at the first market again.
  [proxy, proxyUrl] = await rewritingProxy((u) => u.searchParams.delete('offset'));
  // The same, in pages of 50 whatever was asked: the second page is the first again.
  [proxy50, proxy50Url] = await rewritingProxy((u) => {
    u.searchParams.delete('offset');
    u.searchParams.set('limit', '50');
  });
});
afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await new Promise((r) => proxy50?.close(r));
  await sb?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('pages that repeat rows', () => {
  it('the CLI prints each market once and says so in one line', async () => {
    const cli = cliRunner(
      () => proxyUrl,
      () => dir,
    );
    const r = await cli('briefs', '--csv', '--api-key', ENT);
    expect(r.code, r.err).toBe(0);
    const table = parseCsv(r.out);
    const slugs = table.rows.map((row) => String(row[table.columns.indexOf('market_slug')]));
    expect(slugs.length).toBeGreaterThan(200);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(r.err.match(/a later page repeated/g)).toHaveLength(1);
  });

  it('the JSON pages every host reads keep each brief once, the warning in the answer', async () => {
    const client = new DchubClient({ baseUrl: proxyUrl, apiKey: ENT, cache: false });
    const all = await fetchBriefsAllPages(client);
    const slugs = all.briefs.map((b) => b.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(fetchMeta(all)?.warnings.some((w) => /rows a later page repeated were left out/.test(w))).toBe(true);
    // Two pages served the whole set (no runaway).
    expect(client.requestsSent).toBeLessThanOrEqual(3);
  });

  it('a page that adds nothing new stops the paging', async () => {
    // Pages of 50 that always start at the first market: the second adds nothing, the read ends there.
    const client = new DchubClient({ baseUrl: proxy50Url, apiKey: ENT, cache: false });
    const all = await fetchBriefsAllPages(client);
    expect(all.briefs).toHaveLength(new Set(all.briefs.map((b) => b.slug)).size);
    expect(client.requestsSent).toBe(2);
    expect(fetchMeta(all)?.warnings.join(' ')).toMatch(/paging stopped at a page that added nothing new/);
  });
});
