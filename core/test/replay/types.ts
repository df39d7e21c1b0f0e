/**
 * A replay case: a shape the real service answers (reference notes, values generated), what the
 * user runs, and what must come out. Cases are data; the runner (core/test/replay.test.ts) serves
 * them from a loopback counterpart, or points them at another base URL (DCHUB_REPLAY_BASE_URL).
 */

/** One recorded answer. `body`: an object is sent as JSON, a string as it is. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** `other:/path` (another origin) or `self:/path` (same origin): sent as Location. */
  redirect?: string;
}

export interface Route {
  method?: 'GET' | 'POST';
  /** Path under the case's base URL (exact), or a pattern. */
  path: string | RegExp;
  /** Query members that must match. */
  query?: Record<string, string>;
  /** One reply, or replies given in order (the last repeats). */
  reply: Reply | Reply[];
}

/** What one run of the CLI must produce. */
export interface Expect {
  code: number;
  /** Each must match somewhere in stderr. */
  stderr?: RegExp[];
  /** Must not match stderr. */
  notStderr?: RegExp[];
  /** Each must be found in stdout (the data that should survive). */
  stdout?: Array<string | RegExp>;
  /** Must not be found in stdout. */
  notStdout?: Array<string | RegExp>;
  /** For `--format json` runs: checks on the parsed output. */
  json?: (out: any) => void;
}

export interface Run {
  argv: string[];
  expect: Expect;
}

export interface ReplayCase {
  /** `area: what the case shows`. */
  name: string;
  /** Where the shape comes from (notes section). */
  source: string;
  /** Sends the replay key (`--api-key`), whose absence from every output is checked. */
  keyed?: boolean;
  routes: Route[];
  /** The CLI runs, in order, sharing one cache directory. */
  runs: Run[];
  /** What "another origin" answers (redirect cases). */
  otherOrigin?: unknown;
  /** The other origin must never be asked (a keyed redirect elsewhere). */
  otherOriginUntouched?: boolean;
  /** MCP: the tool the CLI calls and the result the server gives. */
  mcp?: {
    tool: string;
    result: {
      content: Array<{ type: 'text'; text: string }>;
      structuredContent?: Record<string, unknown>;
      isError?: boolean;
    };
  };
  /**
   * The expectations that hold against any counterpart serving the real shapes (the sandbox's
   * `real` profile in CI, or DCHUB_REPLAY_BASE_URL); cases without them run locally only.
   */
  portable?: Portable;
  /** Requests the local counterpart may receive in all the runs (a read that pages must not ask twice). */
  requests?: number;
}

/** Key tiers a portable case may call with (`anonymous`: no key). */
export type ReplayTier = 'anonymous' | 'free' | 'starter' | 'developer' | 'pro' | 'enterprise';

/** A portable run: what the CLI prints against a counterpart that serves the real shapes by itself. */
export interface Portable extends Expect {
  /** The checked run (default: the case's first run). */
  argv?: string[];
  /** The key's tier (default: `pro` for a keyed case, else `anonymous`). */
  tier?: ReplayTier;
  /** Runs before the checked one, sharing its cache directory (to fill the cache, spend an allowance); each exits 0. */
  before?: string[][];
  /**
   * Fault rules set on the counterpart's test controls (`POST /_sandbox/faults`) after `before` and
   * before the checked run; a `location` of `other:/` is another origin the runner serves (its
   * `otherOrigin`), `self:/` the counterpart itself. Cases with faults need the controls.
   */
  faults?: Array<Record<string, unknown>>;
  /** The other origin must never be asked (a keyed redirect elsewhere). */
  otherOriginUntouched?: boolean;
}
