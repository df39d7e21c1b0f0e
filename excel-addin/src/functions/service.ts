import { DchubClient, DchubError, ValidationError } from '@dchub/core';
import { loadSettings } from '../shared/settings';

/** One client per settings value, rebuilt when the task pane changes the URL or key. */
let cached: { signature: string; client: DchubClient } | undefined;

export async function serviceClient(): Promise<DchubClient> {
  const s = await loadSettings();
  const signature = `${s.baseUrl}\u0000${s.apiKey ?? ''}`;
  if (!cached || cached.signature !== signature) {
    cached = { signature, client: new DchubClient({ baseUrl: s.baseUrl, apiKey: s.apiKey, timeoutMs: 45_000 }) };
  }
  return cached.client;
}

/** Excel caps error messages; keep them short and free of anything secret. */
const clip = (s: string) => (s.length > 240 ? `${s.slice(0, 237)}...` : s);

/**
 * Maps a failure to a cell error: bad arguments → #VALUE! naming the argument; anything from the
 * service or the network → #N/A with the reason.
 */
export function toCellError(err: unknown): CustomFunctions.Error {
  if (err instanceof ValidationError && err.status === undefined) {
    return new CustomFunctions.Error(CustomFunctions.ErrorCode.invalidValue, clip(err.message));
  }
  if (err instanceof DchubError) {
    return new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, clip(`DC Hub: ${err.message}`));
  }
  if (err instanceof DOMException && err.name === 'AbortError') {
    return new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, 'DC Hub: request canceled');
  }
  const msg = err instanceof Error ? err.message : String(err);
  return new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, clip(`DC Hub: ${msg}`));
}

/** An AbortSignal that fires when Excel cancels the call. */
export function cancelSignal(invocation?: CustomFunctions.CancelableInvocation): AbortSignal | undefined {
  if (!invocation) return undefined;
  const ctl = new AbortController();
  invocation.onCanceled = () => ctl.abort();
  return ctl.signal;
}

/** `headers` argument: 0 none, 1 a header row (default), 2 a source/as-of row plus the header row. */
export function headerMode(v: unknown): 0 | 1 | 2 {
  if (v === null || v === undefined || v === '') return 1;
  const n = Number(v);
  if (n === 0 || n === 1 || n === 2) return n;
  throw new ValidationError('headers', `must be 0 (none), 1 (header row) or 2 (source row and header row), got ${JSON.stringify(v)}`);
}
