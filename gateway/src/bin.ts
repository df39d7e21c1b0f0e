#!/usr/bin/env node
import { runGatewayCli } from './cli.js';

process.exitCode = await runGatewayCli(process.argv.slice(2), process.env, {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
});
