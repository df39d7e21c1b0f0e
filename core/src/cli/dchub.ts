#!/usr/bin/env node
import { runCli } from './main.js';

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

process.exitCode = await runCli(process.argv.slice(2), {
  out: write(process.stdout),
  err: write(process.stderr),
  env: process.env,
});
