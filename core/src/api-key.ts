import { ValidationError } from './errors.js';

/**
 * The one rule for an API key wherever it enters (a flag, the environment, a file, the keyring, the
 * Python API, the Jupyter server's environment): surrounding white space is trimmed; anything else
 * outside printable ASCII is refused — a line break, a control character, a non-ASCII character are
 * what a paste from a terminal or an `.env` file brings — in words that never repeat the key.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const LINE_BREAK = /[\r\n\u2028\u2029]/;
const NOT_PRINTABLE_ASCII = /[^\u0020-\u007e]/;

/** The key to send (trimmed), undefined for none; a key that cannot be one is refused, naming `name`. */
export function checkApiKey(raw: string | null | undefined, name = 'api_key'): string | undefined {
  const key = raw?.trim();
  if (!key) return undefined;
  const why = LINE_BREAK.test(key)
    ? 'contains a line break'
    : CONTROL.test(key)
      ? 'contains a control character'
      : NOT_PRINTABLE_ASCII.test(key)
        ? 'contains a non-ASCII character'
        : undefined;
  if (why) throw new ValidationError(name, `${why} — check how it was pasted`);
  return key;
}
