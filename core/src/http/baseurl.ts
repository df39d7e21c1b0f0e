import { DchubError } from '../errors.js';
import { stripUserinfo } from './words.js';

/**
 * The service root a client talks to. A base URL carrying `user:password@` is refused: its secret
 * would travel in cache keys, ledgers and messages, and the key has its own place (`X-API-Key`).
 */
export function normalizeBaseUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DchubError('validation', `base URL ${JSON.stringify(stripUserinfo(url))} is not a valid URL`);
  }
  if (u.username || u.password) {
    throw new DchubError(
      'validation',
      `base URL must not contain credentials (user:password@${u.host}); give the API key with --api-key or DCHUB_API_KEY (or the key field) instead`,
    );
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new DchubError('validation', `base URL must be http or https, got ${u.protocol}`);
  }
  u.search = '';
  u.hash = '';
  return u.href.replace(/\/+$/, '') + '/';
}
