import { oneLine } from './http/words.js';

/**
 * What the service explains about an answer or a refusal, worded once for every host: which ISOs a
 * time-to-power cut excluded and what to ask instead, why an objective could not be scored, which
 * candidates were left out, the caveats of a ranking, why a forecast is missing, why the service is
 * degraded, hints, and the valid names a refusal suggests. Each is one plain line, in the
 * service's own words where it gave words (clipped, never replaced by a generic reason). The CLI
 * prints them on stderr, Excel in a closing row or the cell's message, the panel in its banner.
 * docs/explanations.md lists every field and how each host shows it.
 */
export interface Explanation {
  /** The service's field the line comes from (`isos_excluded_by_ttp`, `hint`, `objective_status`, ...). */
  field: string;
  /** One plain line. */
  text: string;
}

/** The longest line (the CLI and the panel show it whole; Excel clips its message to 255 characters). */
const MAX_LINE = 300;
/** Names of a list shown before the rest are counted. */
const MAX_NAMES = 20;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? oneLine(v, MAX_LINE) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** A list of names (strings, or records named by name/slug/id), the first MAX_NAMES of them. */
function names(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((x) => {
    if (typeof x === 'string' || typeof x === 'number') return String(x).trim() ? [String(x).trim()] : [];
    if (isObj(x)) return [str(x.name) ?? str(x.slug) ?? str(x.id)].filter((s): s is string => s !== undefined);
    return [];
  });
}
const nameList = (xs: readonly string[]) =>
  xs.length > MAX_NAMES ? `${xs.slice(0, MAX_NAMES).join(', ')} … and ${xs.length - MAX_NAMES} more` : xs.join(', ');

/** A value as plain words: text as it is, a record as `k=v` pairs. */
function words(v: unknown): string | undefined {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return str(String(v));
  if (isObj(v)) {
    const pairs = Object.entries(v).filter(([, x]) => x !== null && typeof x !== 'object');
    return pairs.length ? pairs.map(([k, x]) => `${k}=${String(x)}`).join(', ') : undefined;
  }
  return undefined;
}

const line = (field: string, text: string): Explanation => ({ field, text: oneLine(text, MAX_LINE) });

/**
 * Refined queue (notes §2.21): the ISOs a time-to-power cut excluded, the smallest cut that keeps one, the service's
 * hint.
 */
function queueLines(b: Obj): Explanation[] {
  const out: Explanation[] = [];
  const filters = isObj(b.filters_applied) ? b.filters_applied : {};
  const cut = num(filters.max_ttp_months);
  const excluded = isObj(b.isos_excluded_by_ttp) ? Object.entries(b.isos_excluded_by_ttp) : [];
  if (excluded.length) {
    const isos = excluded
      .map(([iso, months]) => (num(months) !== undefined ? `${iso} (${fmt(months as number)} months)` : iso))
      .join(', ');
    out.push(
      line(
        'isos_excluded_by_ttp',
        `excluded by max_ttp_months${cut !== undefined ? ` ${fmt(cut)}` : ''} (average time to power longer): ${isos}`,
      ),
    );
  }
  const mitigation = isObj(b._error_mitigation) ? b._error_mitigation : undefined;
  const hint = str(mitigation?.deterministic_hint);
  const suggested = words(mitigation?.suggested_params);
  if (hint) {
    // The suggestion rides with the hint unless the hint already says its values.
    const values = isObj(mitigation?.suggested_params) ? Object.values(mitigation.suggested_params).map(String) : [];
    const said = values.length > 0 && values.every((v) => hint.includes(v));
    out.push(line('_error_mitigation', `${hint}${suggested && !said ? ` (suggested: ${suggested})` : ''}`));
  } else if (suggested) out.push(line('_error_mitigation', `suggested: ${suggested}`));
  const least = num(b.min_satisfiable_max_ttp_months);
  // Only news when nothing in scope survived the cut and no hint said what to ask instead.
  if (least !== undefined && cut !== undefined && least > cut && !hint) {
    out.push(
      line(
        'min_satisfiable_max_ttp_months',
        `no requested ISO averages ${fmt(cut)} months or less; max_ttp_months ${fmt(least)} keeps the nearest`,
      ),
    );
  }
  return out;
}

/** Rank-sites (notes §2.23): objectives not scored and why, candidates left out, the caveats. */
function rankLines(b: Obj): Explanation[] {
  const out: Explanation[] = [];
  const unscored = new Set<string>();
  for (const s of Array.isArray(b.objective_status) ? b.objective_status : []) {
    if (!isObj(s) || s.status === 'validated') continue;
    const objective = str(s.objective) ?? '?';
    unscored.add(objective);
    out.push(
      line(
        'objective_status',
        `objective ${objective} ${str(s.status) ?? 'unavailable'}${str(s.reason) ? `: ${str(s.reason)}` : ''}`,
      ),
    );
  }
  const coverage = str(b.coverage_note);
  if (coverage) out.push(line('coverage_note', coverage));
  const dropped = num(b.dropped_by_constraints);
  if (dropped)
    out.push(
      line('dropped_by_constraints', `${fmt(dropped)} candidate${dropped === 1 ? '' : 's'} dropped by the constraints`),
    );
  const incomplete = (Array.isArray(b.excluded_incomplete) ? b.excluded_incomplete : []).filter(isObj);
  if (incomplete.length) {
    const who = incomplete.map((c) => {
      const missing = names(c.missing_objectives);
      return `${words(c.id) ?? words(c.candidate_id) ?? '?'}${missing.length ? ` (${missing.join(', ')})` : ''}`;
    });
    out.push(line('excluded_incomplete', `left out, missing objectives (require_complete): ${nameList(who)}`));
  }
  // Per candidate, the objectives it lacks that others carry (one no candidate carries is said above).
  const lacks = (r: Obj) => names(r.missing_objectives).filter((o) => !unscored.has(o));
  const partial = (Array.isArray(b.results) ? b.results : []).filter((r): r is Obj => isObj(r) && lacks(r).length > 0);
  if (partial.length) {
    const who = partial.map((r) => `${words(r.id) ?? `rank ${words(r.rank) ?? '?'}`} (${lacks(r).join(', ')})`);
    out.push(line('missing_objectives', `scored without an objective they do not carry: ${nameList(who)}`));
  }
  const caveats = (Array.isArray(b.caveats) ? b.caveats : []).map(str).filter((c): c is string => c !== undefined);
  for (const c of caveats) out.push(line('caveats', c));
  const fellBack = names(b.unbaselined_fields_fell_back_to_relative).filter((f) => !caveats.some((c) => c.includes(f)));
  if (fellBack.length)
    out.push(
      line(
        'unbaselined_fields_fell_back_to_relative',
        `scored relative to this batch (no population baseline): ${fellBack.join(', ')}`,
      ),
    );
  const contract = isObj(b.candidate_contract) ? b.candidate_contract : {};
  const ids = (field: string, what: string) => {
    const xs = names(contract[field]);
    if (xs.length) out.push(line(`candidate_contract.${field}`, `${what}: ${nameList(xs)}`));
  };
  ids('expired_candidates', 'expired candidate ids (ask the queue again for fresh ones)');
  ids('unknown_candidates', 'unknown candidate ids');
  ids('read_failed_candidates', 'candidate ids the service could not read');
  const readNote = str(contract.read_failed_note);
  if (readNote) out.push(line('candidate_contract.read_failed_note', readNote));
  return out;
}

/** DCPI (§2.6), briefs (§2.29), health (§2.18), stats (§2.1), prices (§2.17), facility detail (§2.10). */
function resourceLines(b: Obj): Explanation[] {
  const out: Explanation[] = [];
  const requested = str(b._requested_slug) ?? (b.redirect_to ? str(b.requested) : undefined);
  const canonical = str(b._canonical_slug) ?? str(b.redirect_to);
  if (requested && canonical && requested !== canonical)
    out.push(line(b._canonical_slug ? '_canonical_slug' : 'redirect_to', `${requested} is answered as ${canonical}`));
  const forecast = isObj(b.forecast) ? b.forecast : undefined;
  if (forecast && forecast.available === false) {
    const facts = [
      str(forecast.reason),
      num(forecast.samples_in_30d) !== undefined
        ? `${fmt(forecast.samples_in_30d as number)} samples in 30 days`
        : undefined,
    ];
    const said = str(forecast.note);
    const known = facts.filter(Boolean).join('; ');
    out.push(line('forecast', `no forecast${said ? `: ${said}` : ''}${known ? ` (${known})` : ''}`));
  }
  const reasons = names(b.degrade_reasons);
  if (reasons.length || (b.status === 'degraded' && 'uptime_seconds' in b)) {
    const note = str(b.note);
    out.push(
      line(
        'degrade_reasons',
        `service degraded${reasons.length ? `: ${reasons.join(', ')}` : ''}${note ? ` — ${note}` : ''}`,
      ),
    );
  }
  if (b.degraded === true) {
    const age = num(b.cache_age_seconds);
    out.push(
      line(
        'degraded',
        `the service answered from its own cached copy${age !== undefined ? ` (${fmt(age)} s old)` : ''}: its database could not be read`,
      ),
    );
  }
  if (b.data_quality === 'fallback')
    out.push(line('data_quality', `not live: fallback data${str(b.source) ? ` (${str(b.source)})` : ''}`));
  const userNote = str(b._user_facing_note);
  if (userNote) out.push(line('_user_facing_note', userNote));
  return out;
}

/** Labels of the lists of valid names a refusal suggests (notes §1.4, §2.4, §2.16, §2.21, §2.29, §3.2). */
const NAME_LISTS: ReadonlyArray<[string, string]> = [
  ['did_you_mean', 'did you mean'],
  ['suggestions', 'did you mean'],
  ['available_markets', 'valid markets'],
  ['sample_markets', 'markets to try'],
  ['valid_regions', 'valid regions'],
  ['supported_isos', 'supported ISOs'],
  ['supported', 'supported'],
  ['available', 'available'],
  ['valid_values', 'valid values'],
];

/** Refusals: hints, docs, examples, valid names, where to get a key, a free alternative. */
function refusalLines(b: Obj): Explanation[] {
  const out: Explanation[] = [];
  const hint = str(b.hint);
  const docs = str(b.docs);
  if (hint) out.push(line('hint', `hint: ${hint}${docs ? ` (docs: ${docs})` : ''}`));
  else if (docs) out.push(line('docs', `docs: ${docs}`));
  for (const [field, label] of NAME_LISTS) {
    const given = typeof b[field] === 'string' ? [str(b[field])!] : names(b[field]);
    if (given.length) out.push(line(field, `${label}: ${nameList(given)}`));
  }
  const example = words(b.example);
  if (example) out.push(line('example', `example: ${example}`));
  const coverage = str(b.coverage_url);
  if (coverage) out.push(line('coverage_url', `coverage: ${coverage}`));
  const alternative = str(b.free_alternative);
  if (alternative) out.push(line('free_alternative', `free alternative: ${alternative}`));
  const key = str(b.auth_instructions) ?? str(b.get_key_url);
  if (key) out.push(line(b.auth_instructions ? 'auth_instructions' : 'get_key_url', `how to get a key: ${key}`));
  const then = isObj(b.agent_action) ? str(b.agent_action.then) : undefined;
  if (then) out.push(line('agent_action.then', `then: ${then}`));
  return out;
}

/** An MCP answer's own words for the user (notes §3.1, §3.2): `user_message` to show, a generic answer's note. */
function toolLines(b: Obj): Explanation[] {
  const out: Explanation[] = [];
  const shown = b.show_to_user === true ? str(b.user_message) : undefined;
  if (shown) out.push(line('user_message', shown));
  const generic = b.is_generic_answer === true ? str(b.answer_note) : undefined;
  if (generic) out.push(line('answer_note', generic));
  return out;
}

/**
 * The explanations a body carries, one line each, in the order a reader meets them (what was
 * excluded, why, what to try). `refusal`: the body of a refusal (an HTTP error, a tool's own
 * error), whose hints, examples and lists of valid names are read too — in an answer those names
 * may mean something else. Empty for a body that explains nothing.
 */
export function explainFields(body: unknown, opts: { refusal?: boolean } = {}): Explanation[] {
  if (!isObj(body)) return [];
  const all = [
    ...queueLines(body),
    ...rankLines(body),
    ...resourceLines(body),
    ...(opts.refusal ? refusalLines(body) : []),
    ...toolLines(body),
  ];
  const seen = new Set<string>();
  return all.filter((e) => !seen.has(e.text) && seen.add(e.text));
}

/** What an answer explains about itself, one line each (see `explainFields`). */
export function explainAnswer(body: unknown): string[] {
  return explainFields(body).map((e) => e.text);
}

/** What a refusal's body explains (hints, valid names, where to get a key, ...), beyond `said` (its message). */
export function explainRefusal(body: unknown, said = ''): string[] {
  return beyond(
    said,
    explainFields(body, { refusal: true }).map((e) => e.text),
  );
}

/** The lines that add to `said` (an error's message, a preview sentence): none that only repeat it. */
export function beyond(said: string, lines: readonly string[]): string[] {
  const known = said.toLowerCase();
  return lines.filter((l) => !known.includes(l.replace(/^[a-z ]+: /i, '').toLowerCase()));
}
