import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, commandFlags, commandsHelp, offlineCommand } from '../src/cli/commands.js';
import { EXIT } from '../src/cli/main.js';
import { cliRunner } from './support/cli.js';

let home: string;
beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'dchub-commands-'));
});
afterAll(() => rm(home, { recursive: true, force: true }));

// No service behind it: nothing here reaches one.
const dchub = cliRunner(
  () => 'http://127.0.0.1:9',
  () => path.join(home, 'cache'),
);

describe('the dchub command table', () => {
  it('lists each command under its own name in --help, in the table order', async () => {
    const help = (await dchub('--help')).out;
    const listed = [...commandsHelp().matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]);
    expect(listed).toEqual(Object.keys(COMMANDS));
    expect(help).toContain(`Commands:\n${commandsHelp()}\nFlags:\n`);
    for (const [name, c] of Object.entries(COMMANDS))
      expect(c.usage.startsWith(`  ${name} `) || c.usage === `  ${name}\n`).toBe(true);
  });

  it('shows every flag a command takes in its usage, and the scoring modes rank and chain accept', () => {
    for (const [name, c] of Object.entries(COMMANDS)) {
      const shown = new Set([...c.usage.matchAll(/--([a-z-]+)/g)].map((m) => m[1]));
      for (const flag of Object.keys(c.flags ?? {})) expect(shown, `${name} --${flag}`).toContain(flag);
    }
    for (const name of ['rank', 'chain'])
      expect(COMMANDS[name].usage).toContain('--mode relative | absolute | percentile');
  });

  it('declares every flag a command shows in its usage, and each flag one way for all commands', () => {
    expect(() => commandFlags()).not.toThrow();
    for (const [name, c] of Object.entries(COMMANDS)) {
      const shown = [...c.usage.matchAll(/\[?--([a-z-]+)/g)].map((m) => m[1]);
      const own = Object.keys(c.flags ?? {});
      // A flag named only to refer to another (briefs' "--limit/--offset") is one the command takes too.
      for (const flag of shown.filter((f) => f !== 'api-key-file')) expect(own, `${name} --${flag}`).toContain(flag);
    }
  });

  it('runs login and logout without a client, and leaves rpc to dchub.ts', async () => {
    expect(offlineCommand('login')).toBeTypeOf('function');
    expect(offlineCommand('logout')).toBeTypeOf('function');
    expect(offlineCommand('queue')).toBeUndefined();
    expect(offlineCommand('toString')).toBeUndefined();
    const rpc = await dchub('rpc');
    expect(rpc.code).toBe(EXIT.usage);
    expect(rpc.err).toContain('unknown command "rpc"');
  });

  it('refuses a name that is no command, an inherited member included', async () => {
    for (const name of ['frobnicate', 'toString', '__proto__', 'constructor']) {
      const r = await dchub(name);
      expect(r.code, name).toBe(EXIT.usage);
      expect(r.err, name).toContain(`unknown command ${JSON.stringify(name)}`);
    }
  });

  it('takes a flag of another command and leaves it unread', async () => {
    const r = await dchub('cache', 'stats', '--objectives', 'a:1', '--csv', '--format', 'json');
    expect(r.code, r.err).toBe(EXIT.ok);
    expect(JSON.parse(r.out)).toMatchObject({ answers: 0 });
  });
});
