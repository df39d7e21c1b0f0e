// Bundles core for the `dchub` Python package: its engine (core/src/engine/dchub-engine.ts, which the Python API and
// the Jupyter relay run) and its CLI (core/src/cli/dchub.ts, the package's `dchub` command), two ES modules for
// Node 20+ that share their chunks (ky, zod, papaparse; the MCP SDK and the charts' code loaded when first used),
// written to python/dchub/engine/ (git-ignored; the wheel ships it). How: scripts/node-bundle.mjs.
import { fileURLToPath } from 'node:url';
import { bundleNode } from './node-bundle.mjs';

const outdir = fileURLToPath(new URL('../python/dchub/engine/', import.meta.url));
const { files, bytes, packages } = await bundleNode(
  ['core/src/engine/dchub-engine.ts', 'core/src/cli/dchub.ts'],
  outdir,
);
console.error(
  `engine and CLI bundle: ${files} files, ${(bytes / 1024).toFixed(0)} KiB, ${packages.length} packages inside, in ${outdir}`,
);
