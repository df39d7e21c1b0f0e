import { runCli } from '../../src/cli/main.js';

/** The Pro key the explanation suites give the sandbox and the stand-in. */
export const PRO = 'explain-pro-key-0001';
/** Every explanation is said alike in each output format. */
export const FORMATS = ['table', 'csv', 'json'] as const;

/** Runs `dchub` in-process; its exit code, stdout, stderr and stderr's lines (less the cache's age lines). */
export async function dchub(baseUrl: string, dir: string, key: string | undefined, ...args: string[]) {
  let out = '';
  let err = '';
  const env = { DCHUB_BASE_URL: baseUrl, DCHUB_CACHE_DIR: dir, ...(key ? { DCHUB_API_KEY: key } : {}) };
  const code = await runCli(args, { out: (s) => (out += s), err: (s) => (err += s), env });
  // The lines a cached answer adds about its age are another test's subject.
  return { code, out, err, lines: err.split('\n').filter((l) => l && !/^dchub: from the cache \(/.test(l)) };
}
