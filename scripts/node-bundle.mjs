// What core's two Node.js bundles share: the engine of the Python package (scripts/bundle-engine.mjs) and the
// standalone `dchub` CLI of the release (scripts/release-cli.mjs). One ES module for Node 20+ with its dependencies
// inside, the MCP SDK and the charts' code as chunks loaded when first used, the Vega builds that an offline chart
// page inlines beside it, and the licences of everything bundled.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundles `entry` (a path under the repository, or several: they share their chunks) into `outdir` (emptied first)
 * as `<name>.mjs` with chunks/ and vendor/ beside it, and THIRD-PARTY-LICENSES.txt: the licence of every package
 * inside. Returns the files and bytes.
 */
export async function bundleNode(entry, outdir) {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root, // the metafile's paths are relative to it
    entryPoints: [entry].flat().map((e) => path.join(root, e)),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    splitting: true,
    minify: true,
    legalComments: 'linked',
    outdir,
    outExtension: { '.js': '.mjs' },
    entryNames: '[name]', // several entries side by side, not in folders of their sources
    chunkNames: 'chunks/[name]-[hash]',
    // CommonJS dependencies inside an ES module need a require of their own.
    banner: {
      js: "import { createRequire as __dchubRequire } from 'node:module'; const require = __dchubRequire(import.meta.url);",
    },
    // Vega's optional native canvas is never used (charts render to SVG); the OS keyring is a native module a bundle
    // cannot carry for every platform: where it is absent, a key `dchub login` stored is read from its file.
    external: ['canvas', '@napi-rs/keyring'],
    metafile: true,
    logLevel: 'warning',
  });
  copyChartBuilds(path.join(outdir, 'vendor'));
  const packages = bundledPackages(result.metafile);
  writeFileSync(path.join(outdir, 'THIRD-PARTY-LICENSES.txt'), licences(packages));
  const outputs = Object.values(result.metafile.outputs);
  return { files: outputs.length, bytes: outputs.reduce((n, o) => n + o.bytes, 0), packages };
}

/**
 * The Vega and Vega-Lite builds an offline chart page inlines (chart_file html), and what a PNG is drawn with (resvg's
 * WebAssembly and the font of its text: core/src/engine/picture.ts), with their licences.
 */
function copyChartBuilds(vendor) {
  mkdirSync(vendor, { recursive: true });
  for (const [pkg, file, as] of [
    ['vega', 'build/vega.min.js'],
    ['vega-lite', 'build/vega-lite.min.js'],
    ['@resvg/resvg-wasm', 'index_bg.wasm', 'resvg.wasm'],
    ['dejavu-fonts-ttf', 'ttf/DejaVuSans.ttf'],
  ]) {
    const dir = path.join(root, 'node_modules', pkg);
    const name = pkg.replace(/^@[^/]+\//, '');
    copyFileSync(path.join(dir, file), path.join(vendor, as ?? path.basename(file)));
    const licence = readdirSync(dir).find((f) => /^licen[cs]e(\.(md|txt))?$/i.test(f));
    if (licence) copyFileSync(path.join(dir, licence), path.join(vendor, `${name}.LICENSE.txt`));
    else writeFileSync(path.join(vendor, `${name}.LICENSE.txt`), `${pkg}: ${readJson(dir).license}\n`);
  }
}

const readJson = (dir) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));

/** The packages whose modules are inside the bundle (from esbuild's metafile): [{ name, version, dir }]. */
function bundledPackages(metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) dirs.add(path.resolve(root, m[1]));
  }
  return [...dirs]
    .map((dir) => {
      const { name, version, license } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      return { name, version, license, dir };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** One section per package: its name, version and licence, and the text of its LICENSE file where it has one. */
function licences(packages) {
  const text = (dir) => {
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
    return file ? readFileSync(path.join(dir, file), 'utf8').trim() : undefined;
  };
  const sections = packages.map((p) => {
    const body = text(p.dir) ?? `(no licence file in the package; its package.json says ${p.license})`;
    return `${p.name}@${p.version} — ${p.license}\n\n${body}\n`;
  });
  return `Third-party software bundled here, with its licences:\n\n${sections.join(`\n${'-'.repeat(72)}\n\n`)}`;
}
