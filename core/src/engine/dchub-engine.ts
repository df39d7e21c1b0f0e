#!/usr/bin/env node
// The compile cache goes on before the rest of core is imported: what is imported after it is compiled from the cache.
import { useCompileCache } from './compile-cache.js';

useCompileCache();
const { VERSION } = await import('../version.js');
if (process.argv.includes('--version')) process.stdout.write(`${VERSION}\n`);
else (await import('./main.js')).startEngine(VERSION);
