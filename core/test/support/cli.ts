import { runCli } from '../../src/cli/main.js';

/** Runs `dchub` in-process against `baseUrl` with a cache directory; its exit code, stdout and stderr. */
export function cliRunner(baseUrl: () => string, cacheDir: () => string) {
  return async (...args: string[]) => {
    let out = '';
    let err = '';
    const code = await runCli(args, {
      out: (s) => (out += s),
      err: (s) => (err += s),
      env: { DCHUB_BASE_URL: baseUrl(), DCHUB_CACHE_DIR: cacheDir() },
    });
    return { code, out, err };
  };
}
