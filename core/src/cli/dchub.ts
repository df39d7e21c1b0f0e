#!/usr/bin/env node
// The compile cache goes on before the rest of core is imported: what is imported after it is compiled from the cache.
import { useCompileCache } from '../engine/compile-cache.js';

useCompileCache();
const [{ startEngine }, { VERSION }, { runCli }] = await Promise.all([
  import('../engine/main.js'),
  import('../version.js'),
  import('./main.js'),
]);

// `dchub queue … | head -1`: the reader went away; stop quietly (no stack trace, nothing more to say).
const quietOnBrokenPipe = (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') process.exit(0);
  throw err;
};
process.stdout.on('error', quietOnBrokenPipe);
process.stderr.on('error', () => undefined);

const write = (stream: NodeJS.WriteStream) => (s: string) => {
  if (!stream.destroyed) stream.write(s);
};

// `dchub rpc`: core as an engine for another program (newline-delimited JSON-RPC on stdio), as the
// Python API and the Jupyter relay run it; it ends when its stdin closes.
if (process.argv[2] === 'rpc') startEngine(VERSION);
else
  process.exitCode = await runCli(process.argv.slice(2), {
    out: write(process.stdout),
    err: write(process.stderr),
    env: process.env,
  });
