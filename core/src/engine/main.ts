import { Engine } from './rpc.js';

/**
 * `dchub-engine` (and `dchub rpc`): core as a long-lived process serving one host over stdio
 * (newline-delimited JSON-RPC 2.0). It ends when the host goes away: its stdin closes (the host
 * exited, even by `kill -9`) or it is re-parented (the host died and left the pipe to a child).
 */
export function startEngine(version: string): void {
  // Only protocol lines go to stdout: anything a library prints goes to stderr.
  console.log = console.error;
  console.info = console.error;
  const parent = process.ppid;
  const engine = new Engine({ input: process.stdin, output: process.stdout, version, onEnd: () => process.exit(0) });
  engine.start();
  const watch = setInterval(() => {
    if (process.ppid !== parent) process.exit(0);
  }, 1000);
  watch.unref();
  process.stdout.on('error', () => process.exit(0)); // the host closed its end
  // An interrupt is for the host (Ctrl-C in a terminal, Jupyter's kernel interrupt reach the whole
  // process group): the host cancels its call with a `cancel` notification, the engine goes on.
  process.on('SIGINT', () => undefined);
}
