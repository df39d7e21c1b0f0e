// One version for the whole project (the root package.json's): every stamp of it agrees (scripts/version.mjs), and
// what carries it at run time says it: `dchub --version` (and the engine: core/src/version.ts), the MCP client's
// clientInfo, the sandbox.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../core/src/cli/main.js';
import { DchubClient, McpToolClient, VERSION } from '../core/src/index.js';
import { startSandbox } from '../sandbox/src/server.js';
import { disagreements, rootVersion, STAMPS } from '../scripts/version.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version as string;

describe('one version for the whole project', () => {
  it('every stamp agrees with the root package.json: workspaces, lock, core, both manifests', () => {
    expect(rootVersion()).toBe(version);
    expect(STAMPS.map((s) => s.file)).toEqual(
      expect.arrayContaining([
        'jupyter-extension/package.json', // the dchub-jupyterlab wheel's version (hatch-nodejs-version)
        'python/pyproject.toml', // the dchub wheel's version
        'core/src/version.ts',
        'manifests/manifest.xml',
        'manifests/manifest.json',
        'package-lock.json',
      ]),
    );
    expect(disagreements(version)).toEqual([]);
    const xml = readFileSync(path.join(root, 'manifests/manifest.xml'), 'utf8');
    expect(/<Version>([^<]*)<\/Version>/.exec(xml)?.[1]).toBe(`${version}.0`);
    expect(JSON.parse(readFileSync(path.join(root, 'manifests/manifest.json'), 'utf8')).version).toBe(version);
    expect(VERSION).toBe(version);
  });

  it('notices a stamp that disagrees', () => {
    expect(disagreements('9.9.9').length).toBe(STAMPS.length);
  });

  it('dchub --version prints it', async () => {
    let out = '';
    const code = await runCli(['--version'], { out: (s) => (out += s), err: () => undefined, env: {} });
    expect([code, out]).toEqual([0, `dchub ${version}\n`]);
  });

  it("the MCP client introduces itself with it (clientInfo), the sandbox's health names it", async () => {
    let clientInfo: unknown;
    const fetchStub = async (input: RequestInfo | URL, init?: RequestInit) => {
      const body = await new Request(input, init).json();
      if (body.method === 'initialize') clientInfo = body.params.clientInfo;
      throw new TypeError('offline');
    };
    const mcp = new McpToolClient(new DchubClient({ baseUrl: 'https://mcp.example.invalid' }), { fetch: fetchStub });
    await expect(mcp.listTools()).rejects.toThrow();
    expect(clientInfo).toEqual({ name: 'dchub-office', version });
    const sb = await startSandbox({ port: 0, seed: 'version' });
    try {
      expect((await (await fetch(`${sb.url}/api/health`)).json()).version).toBe(`sandbox-${version}`);
    } finally {
      await sb.close();
    }
  });
});
