/**
 * Notebook code that calls the DC Hub Python API (`from dchub import Client`: what `pip install dchub` brings, so the
 * notebook runs wherever Python does) with a panel's current arguments, so a re-run fetches current data (through the
 * cache the CLI shares).
 * Pure functions: no DOM, tested under Node.
 */

/** A Python literal for a JSON-like value. */
export function pyValue(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'None';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(pyValue).join(', ')}]`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${JSON.stringify(k)}: ${pyValue(x)}`)
      .join(', ')}}`;
  }
  // Not JSON-like (a bigint, a function, a symbol): a bigint is a Python int, the rest is nothing.
  return typeof v === 'bigint' ? v.toString() : 'None';
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `hub.<method>(<positional>, name=value, ...)`: blank arguments (undefined, null, '', false) are
 * left out so the API's defaults apply; names that are not Python identifiers go through `**{}`.
 */
export function pythonCall(method: string, args: Record<string, unknown> = {}, positional: unknown[] = []): string {
  const parts = positional.map(pyValue);
  const odd: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null || v === '' || v === false) continue;
    if (IDENTIFIER.test(k)) parts.push(`${k}=${pyValue(v)}`);
    else odd[k] = v;
  }
  if (Object.keys(odd).length) parts.push(`**${pyValue(odd)}`);
  return `hub.${method}(${parts.join(', ')})`;
}

/** A number typed in a form as a number (text that is not a number stays text, for the API to name). */
export function formNumber(text: string): number | string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

/**
 * The chart line under the data line: `charts.<name>(df)` with the options the panel drew it with
 * that the Python API takes (the user's time-to-power limit; `top` and a ranking's weights are the
 * same by default, the weights from the frame's attrs).
 */
export function chartCall(name: string, variable: string, options: { maxTtpMonths?: number } = {}): string {
  const args =
    options.maxTtpMonths !== undefined && Number.isFinite(options.maxTtpMonths)
      ? `, max_ttp_months=${pyValue(options.maxTtpMonths)}`
      : '';
  return `charts.${name}(${variable}${args})`;
}

/**
 * The code cell: the client (service, key and cache from the kernel's environment, or the
 * panel's direct URL; never the key), the call, and the result shown — the data, or the chart of
 * it the panel shows (`chart`, a `chartCall`).
 */
export function pythonCell(opts: { call: string; variable?: string; baseUrl?: string; chart?: string }): string {
  const variable = opts.variable ?? 'df';
  const client = opts.baseUrl
    ? `hub = Client(base_url=${pyValue(opts.baseUrl)})  # the key comes from DCHUB_API_KEY, never from the notebook`
    : 'hub = Client()  # service, key and cache from DCHUB_BASE_URL, DCHUB_API_KEY, DCHUB_CACHE_DIR';
  // Said once, where the client is made: how a narrower question may be answered, and how to turn it off.
  const derive =
    "# A stricter question may be answered from a wider cached answer (exactly as the service would: attrs['derived_from']); Client(derive=False) asks the service every time.";
  const imports = opts.chart ? 'from dchub import Client, charts' : 'from dchub import Client';
  return [imports, '', derive, client, `${variable} = ${opts.call}`, opts.chart ?? variable].join('\n');
}

/** The markdown cell above it: what the data is, that re-running refreshes it, and the citation. */
export function pythonMarkdown(opts: { title: string; citation?: string; asOf?: string }): string {
  const esc = (s: string) => s.replace(/([\\`*_[\]<>])/g, '\\$1');
  const lines = [
    `**${esc(opts.title)}**, loaded with the DC Hub Python API: run the cell below to fetch current data (answers are cached, shared with the \`dchub\` command line).`
  ];
  if (opts.asOf) lines.push('', `Data as of ${esc(opts.asOf)} when inserted.`);
  lines.push('', `Source: ${esc(opts.citation ?? 'DC Hub, dchub.cloud')}`);
  return lines.join('\n');
}
