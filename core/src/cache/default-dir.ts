import os from 'node:os';
import path from 'node:path';

/**
 * The cache directory when none is given: the platform's user cache directory by the rules of
 * Python's platformdirs (`user_cache_dir("dchub", appauthor=False)`), so the CLI and the Python API
 * share one directory and one allowance. Linux and other Unix: `$XDG_CACHE_HOME/dchub` (when set and
 * not blank) or `~/.cache/dchub`; macOS: `~/Library/Caches/dchub`; Windows: `%LOCALAPPDATA%\dchub\Cache`.
 */
export function defaultCacheDir(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
  home = os.homedir(),
): string {
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA?.trim() ? env.LOCALAPPDATA : path.win32.join(home, 'AppData', 'Local');
    return path.win32.join(local, 'dchub', 'Cache');
  }
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Caches', 'dchub');
  const xdg = env.XDG_CACHE_HOME;
  return path.posix.join(xdg?.trim() ? xdg : path.posix.join(home, '.cache'), 'dchub');
}
