/**
 * Gated previews and plan walls described once, for every host: what the service withheld (rows,
 * fields, sections), which of the caller's own filters it ignored, the plan that opens the full
 * answer and where. `previewSentence` and `wallSentence` are the one wording the CLI, the Excel
 * closing row and the JupyterLab banner all show.
 */

export interface PreviewInfo {
  /** Rows delivered, when the answer is a list. */
  shown?: number;
  /** Rows the full answer holds (`_total_available`, `total_matching`, ...), when the service said. */
  total?: number;
  /** Rows withheld (`_hidden_count`, or total − shown). */
  hidden?: number;
  /** Fields withheld from every row (`_locked_fields`), sorted. */
  lockedFields: string[];
  /** Parts of the answer withheld as a whole (a brief's Pro sections). */
  withheldSections: string[];
  /** The caller's own filters the preview was computed without (`_preview_params_not_applied` ∩ what was sent). */
  filtersNotApplied: string[];
  /** The plan that opens the full answer (`developer`, `pro`, `IDENTIFIED` = any key). */
  requiredTier?: string;
  /** Where to get it (signed checkout, pricing or key-claim page). */
  upgradeUrl?: string;
  /** The service's own call to action, one line. */
  message?: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s !== '') : [];

/** The names of the parameters a caller sent, from a query or a body. */
export function sentParams(sent: URLSearchParams | Record<string, unknown> | undefined): Set<string> {
  if (!sent) return new Set();
  if (sent instanceof URLSearchParams) return new Set([...sent.keys()]);
  return new Set(
    Object.entries(sent)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k]) => k),
  );
}

/**
 * The gating markers of an answer (the Sep-2026 tease of notes §1.3 and the older §5.3 set), or
 * undefined when the answer is not a preview. `rows` are the delivered list rows, when any.
 */
export function describeGated(
  body: unknown,
  opts: { rows?: readonly unknown[]; sent?: URLSearchParams | Record<string, unknown> } = {},
): PreviewInfo | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  const lockedRows = opts.rows?.filter((r) => (r as { locked?: unknown } | null)?.locked === true).length ?? 0;
  const gated =
    b._gated === true ||
    b._preview_only === true ||
    b.preview === true ||
    Array.isArray(b._locked_fields) ||
    lockedRows > 0;
  if (!gated) return undefined;
  const shown = opts.rows?.length;
  const total = int(b._total_available) ?? int(b.total_available);
  const hidden =
    int(b._hidden_count) ?? (total !== undefined && shown !== undefined && total > shown ? total - shown : undefined);
  const options = Array.isArray(b.upgrade_options) ? (b.upgrade_options as Array<Record<string, unknown>>) : [];
  const sent = sentParams(opts.sent);
  return previewInfo({
    shown,
    total,
    hidden,
    lockedFields: strings(b._locked_fields),
    filtersNotApplied: strings(b._preview_params_not_applied).filter((p) => sent.has(p)),
    requiredTier:
      str(b._required_tier) ??
      str(b.required_tier) ??
      str(b.required_plan) ??
      str(options.find((o) => str(o.plan) !== 'pack')?.plan),
    upgradeUrl: str(b.upgrade_url) ?? str(b._signup_url) ?? str(b.signup_url) ?? str(options[0]?.url),
    message: str(b._upgrade_cta) ?? str(b.human_message) ?? str(b.user_message),
  });
}

/** A PreviewInfo with its lists filled and sorted. */
export function previewInfo(p: Partial<PreviewInfo>): PreviewInfo {
  return {
    ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)),
    lockedFields: [...(p.lockedFields ?? [])].sort(),
    withheldSections: [...(p.withheldSections ?? [])],
    filtersNotApplied: [...(p.filtersNotApplied ?? [])].sort(),
  };
}

const fmt = (n: number) => n.toLocaleString('en-US');
const list = (xs: readonly string[]) => xs.join(', ');

/** `pro` → `Pro`; `IDENTIFIED` (any caller with a key) → `an API key`. */
export function planName(tier: string): string {
  const t = tier.trim().toLowerCase();
  if (t === 'identified' || t === 'free') return 'a free API key';
  return `the ${t.charAt(0).toUpperCase()}${t.slice(1)} plan`;
}

const clip = (s: string, max = 160) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/**
 * One sentence saying what a preview withholds and how to open it, e.g. "Preview: 3 of 4,948 rows
 * shown; withheld: capacity_mw, fiber_km; your filters min_mw, max_ttp_months were not applied;
 * the Developer plan opens the full answer: https://dchub.cloud/pricing."
 */
export function previewSentence(p: PreviewInfo, lead = 'Preview'): string {
  const rows =
    p.shown !== undefined && p.total !== undefined
      ? `${fmt(p.shown)} of ${fmt(p.total)} rows shown`
      : p.hidden !== undefined
        ? `${fmt(p.hidden)} rows hidden`
        : p.shown !== undefined
          ? `${fmt(p.shown)} rows shown`
          : undefined;
  const parts = [`${lead}${rows ? `: ${rows}` : ''}`];
  if (p.lockedFields.length) parts.push(`withheld: ${list(p.lockedFields)}`);
  if (p.withheldSections.length) parts.push(`sections withheld: ${list(p.withheldSections)}`);
  if (p.filtersNotApplied.length) {
    const many = p.filtersNotApplied.length > 1;
    parts.push(`your filter${many ? 's' : ''} ${list(p.filtersNotApplied)} ${many ? 'were' : 'was'} not applied`);
  }
  const unlock = p.requiredTier
    ? `${planName(p.requiredTier)} opens the full answer`
    : p.message
      ? clip(p.message).replace(/[.\s]+$/, '')
      : 'an API key opens the full answer';
  parts.push(`${unlock}${p.upgradeUrl && !unlock.includes(p.upgradeUrl) ? `: ${p.upgradeUrl}` : ''}`);
  return `${parts.join('; ').replace(/[.\s]+$/, '')}.`;
}

export interface WallInfo {
  /** The service's words, one line. */
  message?: string;
  requiredTier?: string;
  currentPlan?: string;
  upgradeUrl?: string;
  /** The tool or endpoint behind the wall. */
  what?: string;
}

/** One sentence for a plan wall (403 plan_required, an MCP `pro_required`). */
export function wallSentence(w: WallInfo): string {
  const said = w.message ? clip(w.message, 200) : undefined;
  const head = said ?? `${w.what ?? 'This'} needs ${w.requiredTier ? planName(w.requiredTier) : 'a higher plan'}`;
  // Only what the service's words do not already say.
  const named = (tier: string) => head.toLowerCase().includes(tier.trim().toLowerCase());
  const facts = [
    w.currentPlan ? `your plan: ${w.currentPlan}` : undefined,
    w.requiredTier && said && !named(w.requiredTier)
      ? `needs: ${planName(w.requiredTier).replace(/^the /, '')}`
      : undefined,
  ].filter(Boolean);
  const url = w.upgradeUrl && !head.includes(w.upgradeUrl) ? `upgrade: ${w.upgradeUrl}` : undefined;
  if (!facts.length && !url) return head;
  return `${head.replace(/[.\s]+$/, '')}${facts.length ? ` (${facts.join(', ')})` : ''}${url ? `; ${url}` : ''}`;
}
