import {
  DchubError,
  MemoryStore,
  NotCachedError,
  OfficeRuntimeStore,
  RateLimitError,
  ValidationError,
  createCallerClient,
  errorSentence,
  type DchubClient,
  type CallOptions,
  type KeyValueStore,
} from '@dchub/core';
import { loadSettings } from '../shared/settings';
import { useDateMode } from './dates';
import { readableTimes } from './notes';

/**
 * The one client of the add-in (core's createCallerClient): answers cached in OfficeRuntime.storage
 * (shared with the task pane; 2 M characters of answers, least recently used evicted first, well
 * under the 10 MB domain budget), the daily quota ledger in the same store (never evicted), and
 * the pane's derive setting.
 */
let cached: { signature: string; client: DchubClient } | undefined;

function storage(): KeyValueStore {
  const office = (globalThis as { OfficeRuntime?: { storage?: ConstructorParameters<typeof OfficeRuntimeStore>[0] } })
    .OfficeRuntime;
  return office?.storage ? new OfficeRuntimeStore(office.storage, 2_000_000) : new MemoryStore();
}

export async function serviceClient(): Promise<DchubClient> {
  const s = await loadSettings();
  useDateMode(s.dates);
  const signature = `${s.baseUrl}\u0000${s.apiKey ?? ''}\u0000${s.derive ?? ''}`;
  if (!cached || cached.signature !== signature) {
    const { client } = createCallerClient({
      baseUrl: s.baseUrl,
      apiKey: s.apiKey,
      timeoutMs: 45_000,
      store: storage(),
      derive: s.derive,
    });
    cached = { signature, client };
  }
  return cached.client;
}

/** Forgets the client (the task pane changed the URL or the key, or cleared the cache). */
export function resetServiceClient(): void {
  cached = undefined;
}

/** Excel shows at most 255 characters of a message: the first line only (never a stack trace), clipped. */
const MAX_MESSAGE = 255;
const clip = (s: string) => {
  const line = s.split('\n')[0].trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
};

/**
 * Maps a failure to a cell error: bad arguments → #VALUE! naming the argument; anything from the
 * service or the network → #N/A with the reason. The message is core's `errorSentence`: the
 * service's words, then what it explained beyond them (a hint, the valid names it suggests, where
 * to get a key), clipped to what Excel shows.
 */
export function toCellError(err: unknown): CustomFunctions.Error {
  if (err instanceof CustomFunctions.Error) return err;
  if (err instanceof ValidationError && err.status === undefined) {
    return new CustomFunctions.Error(CustomFunctions.ErrorCode.invalidValue, clip(errorSentence(err)));
  }
  if (err instanceof NotCachedError) {
    return new CustomFunctions.Error(
      CustomFunctions.ErrorCode.notAvailable,
      'DC Hub: press Enter to fetch (no call is made while you edit)',
    );
  }
  if (err instanceof RateLimitError) {
    // A daily cap or a long wait answers at once (core never waits for it): say when it resets.
    const said = readableTimes(errorSentence(err));
    const reset =
      err.resetAt && !said.includes(readableTimes(err.resetAt)) ? `; resets ${readableTimes(err.resetAt)}` : '';
    return new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, clip(`DC Hub: ${said}${reset}`));
  }
  if (err instanceof DchubError) {
    return new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, clip(`DC Hub: ${errorSentence(err)}`));
  }
  if (err instanceof DOMException && err.name === 'AbortError') {
    return new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, 'DC Hub: request canceled');
  }
  const msg = err instanceof Error ? err.message : String(err);
  return new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, clip(`DC Hub: ${msg}`));
}

// The runtime's typings declare isInValuePreview as a string; Excel passes a boolean. Accept both.
type AnyInvocation = Omit<CustomFunctions.Invocation, 'isInValuePreview'> & {
  isInValuePreview?: unknown;
  onCanceled?: () => void;
};

/**
 * Call options for an invocation: abort when Excel cancels; answer from the cache only during
 * formula value preview (no metered call while the user is still typing).
 */
export function callOptions(invocation?: AnyInvocation): CallOptions {
  if (!invocation) return {};
  const ctl = new AbortController();
  invocation.onCanceled = () => ctl.abort();
  return {
    signal: ctl.signal,
    cacheOnly: invocation.isInValuePreview === true || invocation.isInValuePreview === 'true',
  };
}

/** `headers` argument: 0 none, 1 a header row (default), 2 a source/as-of row plus the header row. */
export function headerMode(v: unknown): 0 | 1 | 2 {
  if (v === null || v === undefined || v === '') return 1;
  const n = Number(v);
  if (n === 0 || n === 1 || n === 2) return n;
  throw new ValidationError(
    'headers',
    `must be 0 (none), 1 (header row) or 2 (source row and header row), got ${JSON.stringify(v)}`,
  );
}
