// `npm run release`: builds what users install into release/ (emptied first), for the project's one version (the
// root package.json's; scripts/version.mjs) and the add-in's hosting URL (DCHUB_ADDIN_URL, required):
//   dchub-<v>-py3-none-any.whl              `pip install dchub`: the Python API, charts, core's engine, the `dchub` command
//   dchub_jupyterlab-<v>-py3-none-any.whl   `pip install dchub-jupyterlab`: the panel (labextension) and the relay
//                                           (server extension); it depends on dchub==<v> and JupyterLab 4
//   dchub-cli-<v>.tgz                       the `dchub` CLI, standalone (npm i -g)
//   dchub-excel-addin-<v>/ and .zip         the Excel add-in's production build with both manifests for the URL,
//                                           validated offline (test/manifests/manifests.test.ts on this build)
//   SHA256SUMS                              written last: its presence says the release is whole
// Options: --python PATH (else DCHUB_PYTHON, else .venv/bin/python, else python3) builds the wheels.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { productionUrl } from '../excel-addin/manifest-url.js';
import { packCli } from './release-cli.mjs';
import { disagreements, rootVersion } from './version.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const releaseDir = path.join(root, 'release');
const { values: opts } = parseArgs({ options: { python: { type: 'string' } } });

const started = Date.now();
const step = (what) => console.error(`\x1b[1;36m==> ${what}\x1b[0m`);
/** Runs a command in the repository, its output on this one's stderr; throws when it fails. */
const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 2, 2], env: { ...process.env, ...env } });
const fail = (message) => {
  console.error(`release: ${message}`);
  process.exit(1);
};

rmSync(releaseDir, { recursive: true, force: true });
mkdirSync(releaseDir);
const version = rootVersion();
const stale = disagreements(version);
if (stale.length)
  fail(
    `these do not carry the version ${version}: run node scripts/version.mjs --write\n${stale.map((s) => `  ${s.file} (${s.what}): ${s.found}`).join('\n')}`,
  );
let url;
try {
  url = productionUrl();
} catch (err) {
  fail(err.message);
}

step(`release ${version} for an add-in served from ${url}`);
step('core and the sandbox (tsc)');
run('npm', ['run', '--silent', 'build:ts']);

step(
  "the wheels: core's engine and CLI bundle (dchub), the JupyterLab extension's production build (dchub-jupyterlab)",
);
run('npm', ['run', '--silent', 'build:engine']);
run('npm', ['run', '--silent', 'build:prod', '-w', 'jupyter-extension']);
const python =
  opts.python ??
  process.env.DCHUB_PYTHON ??
  (existsSync(path.join(root, '.venv/bin/python')) ? path.join(root, '.venv/bin/python') : 'python3');
// The bundle and the labextension are built above: hatch-jupyter-builder only packs them.
for (const pkg of ['./python', './jupyter-extension'])
  run(python, ['-m', 'pip', 'wheel', '--no-deps', '--no-build-isolation', '--quiet', pkg, '-w', releaseDir], {
    HATCH_JUPYTER_BUILDER_SKIP_NPM: '1',
  });

step('the dchub CLI: core bundled into a standalone npm package');
const cli = await packCli(releaseDir, version);

step('the Excel add-in: production build with both manifests for DCHUB_ADDIN_URL');
run('npm', ['run', '--silent', 'build:prod', '-w', 'excel-addin'], { DCHUB_ADDIN_URL: url });
const addinName = `dchub-excel-addin-${version}`;
const addinDir = path.join(releaseDir, addinName);
// What a web server hosts (source maps stay behind: they are for debugging a development build).
cpSync(path.join(root, 'excel-addin/dist'), addinDir, { recursive: true, filter: (src) => !src.endsWith('.map') });
step('the manifests of the release, validated offline (test/manifests/manifests.test.ts)');
run('npx', ['vitest', 'run', '--reporter=dot', 'test/manifests/manifests.test.ts'], {
  DCHUB_MANIFEST_DIR: addinDir,
  DCHUB_ADDIN_URL: url,
});
// Zipped with Python's standard library (the wheel's build needs Python anyway): one top folder, addinName/.
run(python, ['-m', 'zipfile', '-c', `${addinDir}.zip`, addinDir]);

const artifacts = readdirSync(releaseDir)
  .filter((f) => statSync(path.join(releaseDir, f)).isFile())
  .sort();
const sums = artifacts.map(
  (f) =>
    `${createHash('sha256')
      .update(readFileSync(path.join(releaseDir, f)))
      .digest('hex')}  ${f}\n`,
);
writeFileSync(path.join(releaseDir, 'SHA256SUMS'), sums.join(''));

const size = (f) => `${(statSync(path.join(releaseDir, f)).size / 1024).toFixed(0)} KiB`;
console.log(
  `release ${version} in ${path.relative(process.cwd(), releaseDir) || '.'}/ (${((Date.now() - started) / 1000).toFixed(0)} s):`,
);
for (const f of artifacts) console.log(`  ${f.padEnd(44)} ${size(f).padStart(9)}`);
console.log(`  ${`${addinName}/`.padEnd(44)} to host at ${url}`);
console.log(
  `  SHA256SUMS (sha256sum -c SHA256SUMS); the CLI bundles ${cli.packages} packages (THIRD-PARTY-LICENSES.txt)`,
);
