// What `npm run release` left in release/, used as a user would (run by scripts/test-all.sh after the release, with
// test/release/vitest.config.mts; the wheel's install is scripts/wheel-check.py's):
//   DCHUB_RELEASE_DIR   the release (default: release/)
//   DCHUB_ADDIN_URL     the URL the release was built for
//   DCHUB_API_KEY       a key the release was built beside (scripts/test-all.sh sets a canary): no artifact has it
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import xml2js from 'xml2js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productionUrl } from '../../excel-addin/manifest-url.js';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { rootVersion } from '../../scripts/version.mjs';
import { unifiedSchemaValidator } from '../manifests/unified-schema';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const release = path.resolve(process.env.DCHUB_RELEASE_DIR ?? path.join(root, 'release'));
const version = rootVersion();
const url = productionUrl();
const addin = path.join(release, `dchub-excel-addin-${version}`);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'dchub-release-check-'));
const prefix = path.join(tmp, 'prefix');
const home = path.join(tmp, 'home');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every file under `dir`, recursively. */
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );

/** `dchub` as installed into the prefix, run as a user would: from a fresh home, node on PATH and nothing else
 * (asynchronously: the sandbox answering it runs in this process). */
const dchub = async (args: string[], env: Record<string, string> = {}) =>
  await promisify(execFile)(path.join(prefix, 'bin', 'dchub'), args, {
    cwd: home,
    encoding: 'utf8',
    env: {
      PATH: `${path.join(prefix, 'bin')}:${path.dirname(process.execPath)}`,
      HOME: home,
      XDG_CACHE_HOME: path.join(home, '.cache'),
      ...env,
    },
    timeout: 60_000,
  });

describe(`release ${version} (${release})`, () => {
  it('npm run release left both wheels, the CLI tarball, the add-in (folder and zip), and SHA256SUMS that verify', () => {
    const sums = readFileSync(path.join(release, 'SHA256SUMS'), 'utf8').trim().split('\n');
    const listed = sums.map((l) => l.split(/\s+\*?/)[1]).sort();
    expect(listed).toEqual([
      `dchub-${version}-py3-none-any.whl`,
      `dchub-cli-${version}.tgz`,
      `dchub-excel-addin-${version}.zip`,
      `dchub_jupyterlab-${version}-py3-none-any.whl`,
    ]);
    for (const line of sums) {
      const [sum, file] = line.split(/\s+\*?/);
      expect(
        createHash('sha256')
          .update(readFileSync(path.join(release, file)))
          .digest('hex'),
        file,
      ).toBe(sum);
    }
    expect(statSync(path.join(addin, 'functions.js')).isFile()).toBe(true);
  });

  describe('the CLI tarball', () => {
    let sb: RunningSandbox;
    beforeAll(async () => {
      execFileSync(
        'npm',
        [
          'install',
          '--global',
          '--prefix',
          prefix,
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          path.join(release, `dchub-cli-${version}.tgz`),
        ],
        {
          cwd: tmp,
          stdio: 'inherit',
        },
      );
      mkdirSync(home);
      sb = await startSandbox({ port: 0, seed: 'release-check', keys: 'pro=release-check-pro-key' });
    }, 180_000);
    afterAll(() => sb?.close());

    it('installs with npm i -g: dchub --version prints the version', async () => {
      expect((await dchub(['--version'])).stdout).toBe(`dchub ${version}\n`);
    });

    it('dchub --help lists the commands', async () => {
      expect((await dchub(['--help'])).stdout).toMatch(
        /^dchub — DC Hub from the command line[\s\S]*Commands:[\s\S]*queue[\s\S]*Exit codes:/,
      );
    });

    it('answers from a sandbox standalone (no repository on its way): queue as JSON, then from its cache', async () => {
      const args = ['queue', '--iso', 'PJM', '--limit', '3', '--format', 'json', '--base-url', sb.url];
      const env = { DCHUB_API_KEY: 'release-check-pro-key' };
      const first = JSON.parse((await dchub(args, env)).stdout);
      expect(first.results).toHaveLength(3);
      expect(first.results.every((r: { iso: string }) => r.iso === 'PJM')).toBe(true);
      const again = await dchub(args, env);
      expect(JSON.parse(again.stdout)).toEqual(first);
      expect(again.stderr).toMatch(/^dchub: from the cache \(\d+ s old\)$/m);
      const installed = path.join(prefix, 'lib', 'node_modules', '@dchub', 'cli');
      expect(readdirSync(installed)).toEqual(
        expect.arrayContaining(['dchub.mjs', 'THIRD-PARTY-LICENSES.txt', 'LICENSE']),
      );
    });
  });

  describe('the add-in', () => {
    const xmlText = () => readFileSync(path.join(addin, 'manifest.xml'), 'utf8');
    const json = () => JSON.parse(readFileSync(path.join(addin, 'manifest.json'), 'utf8'));

    it('manifest.xml: well-formed (strict parser), version x.y.z.0, every URL the hosting URL or the service', async () => {
      const app = (await xml2js.parseStringPromise(xmlText(), { strict: true })).OfficeApp;
      expect(app.Version[0]).toBe(`${version}.0`);
      expect(app.DefaultSettings[0].SourceLocation[0].$.DefaultValue).toBe(`${url}taskpane.html`);
      const urls = [
        ...xmlText()
          .replace(/<!--[\s\S]*?-->/g, '')
          .matchAll(/https:\/\/[^"'<>\s]+/g),
      ].map((m) => m[0]);
      expect(urls.filter((u) => u.startsWith(url)).length).toBeGreaterThanOrEqual(6);
      expect(urls.filter((u) => !u.startsWith(url) && !/^https:\/\/dchub\.cloud/.test(u))).toEqual([]);
    });

    it('manifest.json: valid against its bundled schema (offline), the version, functions.json at the hosting URL', () => {
      const m = json();
      const { validate } = unifiedSchemaValidator(m.$schema);
      expect(validate(m), JSON.stringify(validate.errors)).toBe(true);
      expect(m.version).toBe(version);
      expect(m.extensions[0].runtimes[0].customFunctions.metadataUrl).toBe(`${url}functions.json`);
      expect(JSON.stringify(m)).not.toContain('localhost');
    });

    it('the folder has what the manifests name (pages, scripts, functions.json, icons) and no source maps', () => {
      const have = new Set(files(addin).map((f) => path.relative(addin, f)));
      const named = [
        ...`${xmlText()}${JSON.stringify(json())}`.matchAll(
          new RegExp(`${url.replace(/[.?]/g, '\\$&')}([^"'<>\\s]+)`, 'g'),
        ),
      ];
      expect(named.length).toBeGreaterThan(6);
      for (const [, rel] of named) expect(have.has(rel), rel).toBe(true);
      for (const rel of Object.values<string>(json().icons)) expect(have.has(rel), rel).toBe(true);
      expect([...have].filter((f) => f.endsWith('.map'))).toEqual([]);
    });
  });

  it('no artifact carries an API key (the one in the environment while the release was built)', () => {
    const key = process.env.DCHUB_API_KEY?.trim();
    expect(key, 'DCHUB_API_KEY: the key to look for').toBeTruthy();
    const open = path.join(tmp, 'open');
    for (const [name, cmd, args] of [
      ...[`dchub-${version}`, `dchub_jupyterlab-${version}`].map(
        (wheel) =>
          [
            wheel,
            'python3',
            ['-m', 'zipfile', '-e', path.join(release, `${wheel}-py3-none-any.whl`), path.join(open, wheel)],
          ] as const,
      ),
      ['cli', 'tar', ['-xzf', path.join(release, `dchub-cli-${version}.tgz`), '-C', path.join(open, 'cli')]],
      [
        'zip',
        'python3',
        ['-m', 'zipfile', '-e', path.join(release, `dchub-excel-addin-${version}.zip`), path.join(open, 'zip')],
      ],
    ] as const) {
      mkdirSync(path.join(open, name), { recursive: true });
      execFileSync(cmd, args);
    }
    const all = [...files(open), ...files(addin)];
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter((f) => readFileSync(f).includes(key!))).toEqual([]);
  });
});
