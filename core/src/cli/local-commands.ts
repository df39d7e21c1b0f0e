import type { LedgerSnapshot } from '../cache/ledger.js';
import { quotaLine } from '../cache/quota-line.js';
import { normalizeBaseUrl } from '../http/baseurl.js';
import type { Table } from '../table.js';
import { str, type Command } from './command.js';
import { render } from './format.js';
import { login as storeLogin, logout as forgetLogin } from './login.js';
import { UsageError } from './report.js';

/** The commands about this machine's own state: the allowance, the cache, the stored key. None spends a call. */

/** The day's allowance: the ledger's own, or behind a team gateway the caller's share and the team's. */
function quotaTable(s: LedgerSnapshot): Table {
  if (!s.viaGateway)
    return {
      columns: ['tier', 'limit', 'used', 'remaining', 'resets_at', 'confirmed'],
      rows: [[s.tier, s.limit, s.used, s.remaining, s.resetsAt, s.confirmed]],
    };
  const g = s.gateway;
  return {
    columns: ['via', 'share_remaining', 'share_limit', 'team_remaining', 'team_limit', 'resets_at'],
    rows: [
      [
        'the team gateway',
        g?.shareRemaining ?? '',
        g?.shareLimit ?? '',
        g?.teamRemaining ?? '',
        g?.teamLimit ?? '',
        g?.resetsAt ?? '',
      ],
    ],
    note: quotaLine(s),
  };
}

export const quota: Command = {
  usage: `  quota                                  calls left today (no call spent)
`,
  async run(_args, { ledger, io, format }) {
    const s = await ledger.snapshot();
    io.out(render(format, quotaTable(s), { ...s, line: quotaLine(s) }));
    // Behind a gateway the line says so in every format (a table shows it under itself, on stdout).
    if (s.viaGateway && format !== 'table') io.err(`dchub: ${quotaLine(s)}\n`);
    if (!s.viaGateway && !s.confirmed)
      io.err(
        'dchub: the allowance is assumed from the tier (the service has not stated it yet); it warns but never refuses calls\n',
      );
  },
};

export const login: Command = {
  usage: `  login [--api-key-file F]               store a key (typed without echo, or piped on stdin) in the
                                         system's credential store, else a file only you can read
`,
  offline: (_args, { baseUrl, flags, io }) =>
    storeLogin(normalizeBaseUrl(baseUrl), { apiKeyFile: str(flags['api-key-file']) }, io),
};

export const logout: Command = {
  usage: `  logout                                 forget the stored key
`,
  offline: (_args, { baseUrl, io }) => forgetLogin(normalizeBaseUrl(baseUrl), io),
};

export const cache: Command = {
  usage: `  cache stats | cache clear
`,
  async run(args, { cache: answers, cacheDir, io, format }) {
    if (args[0] === 'clear') {
      const n = await answers.clear();
      io.out(`cleared ${n} cached answers from ${cacheDir}\n`);
    } else if (args[0] === 'stats' || args[0] === undefined) {
      const n = await answers.count();
      const table = { columns: ['directory', 'answers'], rows: [[cacheDir, n]] };
      io.out(render(format, table, { directory: cacheDir, answers: n }));
    } else throw new UsageError('cache takes stats or clear');
  },
};

export const rpc: Command = {
  usage: `  rpc                                    serve core to another program: JSON-RPC 2.0 on stdin/stdout
                                         (what the Python API and the Jupyter relay run)
`,
  // Started before the command line is parsed: `dchub rpc` is never a CLI run.
  servedBy: 'dchub.ts',
};
