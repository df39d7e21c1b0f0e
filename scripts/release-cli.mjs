// The `dchub` CLI as an npm package that stands alone: core's CLI bundled (scripts/node-bundle.mjs) with a
// package.json of its own, the licence and a short README, packed into a tarball that `npm i -g` installs.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleNode } from './node-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CLI_PACKAGE = '@dchub/cli';

const README = (version) => `# ${CLI_PACKAGE} ${version}

\`dchub\`: DC Hub from the command line — interconnection queues, site scores, market briefs, the MCP tools.

    npm install -g ./dchub-cli-${version}.tgz
    dchub queue --iso PJM --min-mw 300 --limit 5
    dchub --help

Node.js 20.19 or later. A key is optional (anonymous calls have a small daily allowance): \`dchub login\` stores
one in the system's credential store where \`@napi-rs/keyring\` installs (an optional dependency), else in a file
only you can read. Everything this package bundles is listed, with its licence, in THIRD-PARTY-LICENSES.txt.
`;

/** Bundles and packs the CLI into `releaseDir`; returns the tarball's path. */
export async function packCli(releaseDir, version) {
  const stage = mkdtempSync(path.join(os.tmpdir(), 'dchub-cli-'));
  try {
    const bundle = await bundleNode('core/src/cli/dchub.ts', stage);
    const core = JSON.parse(readFileSync(path.join(root, 'core/package.json'), 'utf8'));
    const rootPkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const pkg = {
      name: CLI_PACKAGE,
      version,
      description: 'DC Hub from the command line: interconnection queues, site scores, market briefs, MCP tools',
      license: core.license,
      type: 'module',
      bin: { dchub: 'dchub.mjs' },
      engines: rootPkg.engines,
      // The OS keyring (a native module per platform) stays outside the bundle: where it does not install,
      // `dchub login` keeps the key in a file only the user can read.
      optionalDependencies: { '@napi-rs/keyring': core.dependencies['@napi-rs/keyring'] },
    };
    writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    writeFileSync(path.join(stage, 'README.md'), README(version));
    copyFileSync(path.join(root, 'LICENSE'), path.join(stage, 'LICENSE'));
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', releaseDir], {
      cwd: stage,
      encoding: 'utf8',
    });
    const [{ filename }] = JSON.parse(out);
    return { tarball: path.join(releaseDir, filename), packages: bundle.packages.length };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
