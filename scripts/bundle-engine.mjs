// Bundles core's engine (core/src/engine/dchub-engine.ts) for the Python package: one ES module
// for Node 20+ with ky, zod and papaparse inside, the MCP SDK as a chunk loaded on the first tool
// call, written to jupyter-extension/dchub_jupyterlab/engine/ (git-ignored; the wheel ships it).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const outdir = new URL('jupyter-extension/dchub_jupyterlab/engine/', root).pathname;
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: [new URL('core/src/engine/dchub-engine.ts', root).pathname],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  minify: true,
  legalComments: 'linked',
  outdir,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  define: { 'globalThis.DCHUB_VERSION': JSON.stringify(version) },
  // CommonJS dependencies inside an ES module need a require of their own.
  banner: { js: "import { createRequire as __dchubRequire } from 'node:module'; const require = __dchubRequire(import.meta.url);" },
  // Vega's optional native canvas is never used (charts render to SVG); the OS keyring is a native module the
  // wheel cannot carry for every platform: where it is absent, a key `dchub login` stored is read from its file.
  external: ['canvas', '@napi-rs/keyring'],
  metafile: true,
  logLevel: 'warning',
});
// The Vega and Vega-Lite builds an offline chart page inlines (chart_file html), with their licences.
const vendor = new URL('jupyter-extension/dchub_jupyterlab/engine/vendor/', root).pathname;
mkdirSync(vendor, { recursive: true });
for (const [pkg, file] of [
  ['vega', 'build/vega.min.js'],
  ['vega-lite', 'build/vega-lite.min.js'],
]) {
  const dir = new URL(`node_modules/${pkg}/`, root).pathname;
  copyFileSync(dir + file, vendor + file.split('/').pop());
  copyFileSync(dir + 'LICENSE', `${vendor}${pkg}.LICENSE.txt`);
}
// The map outlines are inside the bundle (a chunk each): their ISC notices travel with them.
for (const pkg of ['us-atlas', 'world-atlas']) copyFileSync(new URL(`node_modules/${pkg}/LICENSE`, root).pathname, `${vendor}${pkg}.LICENSE.txt`);
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.error(`engine bundle: ${Object.keys(result.metafile.outputs).length} files, ${(bytes / 1024).toFixed(0)} KiB in ${outdir}`);
