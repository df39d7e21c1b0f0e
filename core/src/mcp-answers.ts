import { AuthError, DchubError, RateLimitError, ValidationError, errorFromResponse } from './errors.js';
import { beyond, explainAnswer, explainRefusal } from './explain.js';
import { oneLine } from './http/words.js';
import { describeGated, previewInfo, previewSentence, wallSentence, type PreviewInfo } from './preview.js';

/**
 * How the MCP server's tool answers are read: JSON text (possibly followed by a Markdown upsell
 * tail), plan walls written for a human, daily caps, and partial list previews ("3 of 10").
 */

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The JSON of a tool's text, also when a Markdown tail follows it; else the text itself. */
export function parseToolText(text: string): { data: unknown; tail?: string } {
  const t = text.trim();
  try {
    return { data: JSON.parse(t) };
  } catch {
    /* a tail after the JSON, or plain text */
  }
  if (t.startsWith('{') || t.startsWith('[')) {
    const close = t.startsWith('{') ? '}' : ']';
    // Try the longest prefix ending at a closing bracket; a handful of tries at most.
    for (
      let end = t.lastIndexOf(close), tries = 0;
      end > 0 && tries < 25;
      end = t.lastIndexOf(close, end - 1), tries++
    ) {
      try {
        return { data: JSON.parse(t.slice(0, end + 1)), tail: t.slice(end + 1).trim() || undefined };
      } catch {
        /* keep looking */
      }
    }
  }
  return { data: text };
}

/** A plan wall (`pro_required`, `_wall`, a human-only message) as the AuthError a caller meets. */
export function toolWall(tool: string, data: unknown, isError: boolean): AuthError | undefined {
  if (isObj(data)) {
    const human = isObj(data.for_your_human) ? data.for_your_human : {};
    const code = str(data.error) ?? '';
    const wall =
      data._wall === true ||
      /^(pro_required|plan_required|plan_upgrade_required|upgrade_required)$/.test(code) ||
      (isError && str(human.message) !== undefined);
    if (!wall) return undefined;
    const message = str(data.user_message) ?? str(human.message) ?? str(data.message) ?? str(data.human_message);
    const requiredPlan = str(data.required_plan) ?? str(data._required_tier);
    const upgradeUrl = str(human.url) ?? str(data.upgrade_url) ?? str(data.pricing_url);
    const err = new AuthError(
      `${tool}: ${wallSentence({ message: message ? oneLine(message) : undefined, requiredTier: requiredPlan, currentPlan: str(data.current_plan), upgradeUrl, what: tool })}`,
      {
        status: 403,
        body: data,
        requiredPlan,
        currentPlan: str(data.current_plan),
        upgradeUrl,
        authInstructions: upgradeUrl,
      },
    );
    err.explanations = explainRefusal(data, err.message);
    return err;
  }
  if (
    typeof data === 'string' &&
    (/\bpro_required\b/.test(data) ||
      (isError && /\b(requires|needs) (a |the )?(pro|developer|paid)\b.*plan/i.test(data)))
  ) {
    const url = /https?:\/\/\S+/.exec(data)?.[0]?.replace(/[).,]+$/, '');
    return new AuthError(`${tool}: ${oneLine(data, 240)}`, { status: 403, upgradeUrl: url, authInstructions: url });
  }
  return undefined;
}

/** A daily cap answered as a tool error, as the RateLimitError a caller meets. */
export function toolDailyCap(tool: string, data: unknown): RateLimitError | undefined {
  if (!isObj(data)) return undefined;
  const code = str(data.error);
  if (code !== 'daily_limit_reached' && code !== 'daily_cap_exceeded') return undefined;
  const resetAt = str(data.resets_at);
  const words = oneLine(str(data.message) ?? code);
  return new RateLimitError(
    `${tool}: ${resetAt && !words.includes(resetAt) ? `${words.replace(/[.\s]+$/, '')}; resets at ${resetAt}` : words}`,
    {
      body: data,
      resetAt,
      retryAfterSeconds: typeof data.retry_after === 'number' ? data.retry_after : undefined,
      daily: true,
    },
  );
}

/**
 * A list answer the server cut for this caller ("3 of 10 results"): the markers of notes §3.1
 * (`preview_is_partial`, `trial_preview`, `_<list>_total_in_pro`, `_<field>_in_pro`,
 * `continuation.gated`) and the older `_gated` set, as a PreviewInfo; undefined when complete.
 */
export function toolPreview(data: unknown): PreviewInfo | undefined {
  if (!isObj(data)) return undefined;
  const cont = isObj(data.continuation) && isObj(data.continuation.gated) ? data.continuation.gated : {};
  const totals = Object.entries(data).filter(
    ([k, v]) => /^_.+_total_(in_pro|with_key)$/.test(k) && typeof v === 'number',
  );
  const field =
    str(data._results_field) ??
    str(cont.records_field) ??
    totals.map(([k]) => k.replace(/^_(.+)_total_(in_pro|with_key)$/, '$1')).find((k) => Array.isArray(data[k])) ??
    Object.keys(data).find((k) => Array.isArray(data[k]) && (data[k] as unknown[]).every(isObj));
  const rows = field && Array.isArray(data[field]) ? (data[field] as unknown[]) : undefined;
  const partial =
    data.preview_is_partial === true ||
    data.trial_preview === true ||
    totals.length > 0 ||
    Object.keys(cont).length > 0;
  const gated = describeGated(data, { rows });
  if (!partial && !gated) return undefined;
  const shown = typeof cont.records_shown === 'number' ? cont.records_shown : rows?.length;
  const totalOf = totals.find(([k]) => field && k.startsWith(`_${field}_`))?.[1] as number | undefined;
  const withheld = typeof data._results_withheld === 'number' ? data._results_withheld : undefined;
  const total =
    totalOf ??
    (typeof cont.records_available === 'number' ? cont.records_available : undefined) ??
    (withheld !== undefined && shown !== undefined ? shown + withheld : gated?.total);
  const human = isObj(data.for_your_human) ? data.for_your_human : {};
  const locked = [
    ...Object.entries(data)
      .filter(([k, v]) => /^_.+_in_pro$/.test(k) && v === true)
      .map(([k]) => k.replace(/^_(.+)_in_pro$/, '$1')),
    ...(Array.isArray(cont.fields_unlocked)
      ? cont.fields_unlocked.filter((f): f is string => typeof f === 'string')
      : []),
    ...(gated?.lockedFields ?? []),
  ];
  return previewInfo({
    ...gated,
    shown,
    total,
    hidden: total !== undefined && shown !== undefined && total > shown ? total - shown : gated?.hidden,
    lockedFields: [...new Set(locked)],
    upgradeUrl: str(human.url) ?? gated?.upgradeUrl ?? str(data.upgrade_url),
    message: str(human.message) ?? str(data.user_message) ?? gated?.message,
  });
}

/** Error codes of a tool answer that mean the key itself was refused (not a plan wall). */
const KEY_REFUSED =
  /^(invalid_api_key|api_key_required|auth_required|unauthorized|forbidden|key_revoked|invalid_token)$/i;

/**
 * A tool's own error (an MCP result with `isError`), as the typed error a caller meets: a refused
 * key an AuthError, anything else a ValidationError of the tool, in the server's words, with what
 * it suggests (valid names, a hint, an example) as explanations. Undefined for a result that is an
 * answer: not an error, or the zero-row time-to-power cut whose `_error_mitigation` says what to ask.
 */
export function toolRefusal(r: {
  tool: string;
  data: unknown;
  text: string;
  isError: boolean;
}): DchubError | undefined {
  if (!r.isError || (isObj(r.data) && isObj(r.data._error_mitigation))) return undefined;
  const d = isObj(r.data) ? r.data : {};
  const said =
    str(d.message) ??
    str(d.error) ??
    str(d.user_message) ??
    (str(r.text) ? oneLine(r.text, 300) : undefined) ??
    'the tool reported an error';
  const words = `${r.tool}: ${oneLine(said, 300)}`;
  const err = KEY_REFUSED.test(str(d.error) ?? '')
    ? new AuthError(words, {
        status: 401,
        body: r.data,
        authInstructions: str(d.auth_instructions) ?? str(d.get_key_url),
      })
    : new ValidationError(r.tool, oneLine(said, 300), { body: r.data });
  err.explanations = explainRefusal(r.data, err.message);
  return err;
}

/** What a tool answer explains about itself, beyond what its preview sentence already says. */
export function toolExplanations(r: { data: unknown; previewInfo?: PreviewInfo }): string[] {
  const lines = explainAnswer(r.data);
  return r.previewInfo ? beyond(previewSentence(r.previewInfo), lines) : lines;
}

/**
 * A failure of the MCP exchange itself at `step` (the handshake, tools/list, tools/call) that
 * refuses the key or the plan — HTTP 401/402/403 with the service's body, a JSON-RPC -32001
 * Unauthorized — as an AuthError in the service's words (exit 3, #N/A); undefined for any other.
 */
export function exchangeRefusal(err: unknown, step: string): DchubError | undefined {
  if (err instanceof DchubError) return err.kind === 'auth' ? err : undefined;
  const code = (err as { code?: unknown } | null)?.code;
  const msg = err instanceof Error ? err.message : String(err);
  if (code === 401 || code === 402 || code === 403) {
    // The SDK's StreamableHTTPError: "Error POSTing to endpoint: <the body as served>".
    const at = msg.indexOf('{');
    const served = at >= 0 ? msg.slice(at) : msg.replace(/^.*?endpoint:\s*/, '');
    const refused = errorFromResponse(code, served.trim().startsWith('{') ? parseToolText(served).data : served);
    if (!(refused instanceof AuthError)) return undefined;
    refused.message = `${step}: ${refused.message}`;
    return refused;
  }
  // The SDK's own request timeout shares -32001 ("Request timed out", data.timeout): no refusal of the key.
  const timedOut = code === -32001 && (err as { data?: { timeout?: unknown } }).data?.timeout !== undefined;
  if ((code === -32001 && !timedOut) || /\b(invalid_api_key|unauthori[sz]ed)\b/i.test(msg)) {
    return new AuthError(`${step}: ${oneLine(msg.replace(/^MCP error -?\d+:\s*/, ''), 300)}`, { status: 401 });
  }
  return undefined;
}
