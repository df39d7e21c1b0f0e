// Bundles core's engine (core/src/engine/dchub-engine.ts) for the Python package: one ES module
// for Node 20+ with ky, zod and papaparse inside, the MCP SDK as a chunk loaded on the first tool
// call, written to jupyter-extension/dchub_jupyterlab/engine/ (git-ignored; the wheel ships it).
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

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
  metafile: true,
  logLevel: 'warning',
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.error(`engine bundle: ${Object.keys(result.metafile.outputs).length} files, ${(bytes / 1024).toFixed(0)} KiB in ${outdir}`);
