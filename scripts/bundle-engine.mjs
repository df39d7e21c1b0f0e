// Bundles core's engine (core/src/engine/dchub-engine.ts) for the Python package: one ES module for Node 20+ with
// ky, zod and papaparse inside, the MCP SDK as a chunk loaded on the first tool call, written to
// jupyter-extension/dchub_jupyterlab/engine/ (git-ignored; the wheel ships it). How: scripts/node-bundle.mjs.
import { fileURLToPath } from 'node:url';
import { bundleNode } from './node-bundle.mjs';

const outdir = fileURLToPath(new URL('../jupyter-extension/dchub_jupyterlab/engine/', import.meta.url));
const { files, bytes, packages } = await bundleNode('core/src/engine/dchub-engine.ts', outdir);
console.error(
  `engine bundle: ${files} files, ${(bytes / 1024).toFixed(0)} KiB, ${packages.length} packages inside, in ${outdir}`,
);
