import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_DAILY_ALLOWANCE, QuotaLedger } from './cache/ledger.js';
import { cacheKey } from './cache/keys.js';
import { readAnswerHeader } from './cache/relayed.js';
import { gatewayNotice, isGatewayAnswer } from './cache/gateway.js';
import type { ResponseCache, StoredAnswer } from './cache/responses.js';
import { MemoryStore } from './cache/store.js';
import type { DchubClient } from './client.js';
import { checkApiKey } from './api-key.js';
import { redirectSafeFetch } from './http/redirects.js';
import { DchubError, NetworkError, QuotaSpentError, ValidationError } from './errors.js';
import { exchangeRefusal, parseToolText, toolDailyCap, toolPreview, toolWall } from './mcp-answers.js';
import { formatAge } from './call.js';
import type { PreviewInfo } from './preview.js';
import { MCP_PATH, MCP_TOOL_NAMES } from './schemas/mcp.js';
import { VERSION } from './version.js';
import { fieldTable, recordsTable, type Table } from './table.js';
import { coerceToolArguments, knownToolInputSchema, type ToolArgSchema } from './tool-args.js';

export interface ToolResult {
  tool: string;
  /** The tool's answer: structuredContent, or the JSON in its text, or the text itself. */
  data: unknown;
  isError: boolean;
  text: string;
  fromCache: boolean;
  /** Served from the cache because the service could not be asked (its age and why in `warnings`). */
  stale?: boolean;
  /** The server cut a list for this caller ("3 of 10"): not the whole answer. */
  partial: boolean;
  /** What a partial answer withholds and how to open it (`previewSentence` words it). */
  previewInfo?: PreviewInfo;
  /**
   * What to tell the user about this call, one line each: an assumed daily MCP allowance exceeded
   * (the call still went out). Hosts show them with the answer; never cached with it.
   */
  warnings?: string[];
}

function checkToolName(name: string): void {
  if (!(MCP_TOOL_NAMES as readonly string[]).includes(name)) {
    throw new ValidationError('name', `unknown tool ${JSON.stringify(name)}; one of ${MCP_TOOL_NAMES.join(', ')}`);
  }
}

/**
 * MCP client of the DC Hub server (streamable HTTP, the official SDK), bound to a DchubClient:
 * same base URL and key (sent only there), answers cached like REST answers, and each call
 * reserved against the caller's daily allowance.
 */
export class McpToolClient {
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #tools: Map<string, { inputSchema?: unknown; description?: string }> | undefined;
  callsSent = 0;
  /** MCP calls have their own daily allowance (spec §8.1), kept apart from the REST ledger. */
  readonly ledger: QuotaLedger | undefined;
  /** The key as core's rule reads it (trimmed; a key a header cannot carry is refused here, unquoted). */
  readonly #apiKey: string | undefined;

  constructor(
    readonly rest: DchubClient,
    private readonly opts: {
      apiKey?: string;
      fetch?: typeof fetch;
      lifetimeMs?: number;
      tier?: string;
      ledger?: QuotaLedger | false;
    } = {},
  ) {
    this.#apiKey = checkApiKey(opts.apiKey);
    // Behind a relay, the relay keeps the caller's MCP allowance: a second ledger here would double-count.
    this.ledger =
      opts.ledger === false || rest.relayed
        ? undefined
        : (opts.ledger ??
          new QuotaLedger(rest.cache?.store ?? new MemoryStore(), `${rest.callerId}:mcp`, {
            tier: opts.tier ?? (opts.apiKey ? 'free' : 'anonymous'),
            // Assumed until the server says otherwise (a daily_limit_reached answer): warns, never refuses on a guess.
            allowance: MCP_DAILY_ALLOWANCE,
          }));
  }

  /**
   * What a relay or a team gateway noted on an MCP answer (a call past an assumed allowance, the
   * gateway's notice), for the next result's warnings.
   */
  readonly #relayNotes: string[] = [];
  #readRelayNotes(f: typeof fetch): typeof fetch {
    return async (input, init) => {
      const res = await f(input, init);
      // Only a relay's or a gateway's header is read; once past the allowance every later call is too.
      const gateway = isGatewayAnswer(res.headers);
      if (!this.rest.relayed && !gateway) return res;
      const facts = readAnswerHeader(res.headers);
      const note = facts?.allowance;
      const notice = gatewayNotice(res.headers) ?? facts?.notice;
      for (const line of [note, notice]) if (line && !this.#relayNotes.includes(line)) this.#relayNotes.push(line);
      // The MCP ledger learns that a gateway keeps the allowance (then it never refuses a call itself).
      if (gateway) await this.ledger?.learnGateway(res.headers);
      return res;
    };
  }

  async #connect(): Promise<Client> {
    if (this.#client) return this.#client;
    this.#connecting ??= (async () => {
      const url = new URL(MCP_PATH.replace(/^\//, ''), this.rest.baseUrl);
      const transport = new StreamableHTTPClientTransport(url, {
        requestInit: this.#apiKey ? { headers: { 'X-API-Key': this.#apiKey } } : undefined,
        // Redirects by hand, the key kept on the base URL's origin (as for REST calls).
        fetch: this.#readRelayNotes(this.opts.fetch ? redirectSafeFetch(this.opts.fetch) : this.rest.safeFetch),
      });
      const client = new Client({ name: 'dchub-office', version: VERSION });
      try {
        await client.connect(transport);
      } catch (err) {
        this.#connecting = undefined;
        // A refused key or plan at the handshake: the service's words (exit 3, #N/A), never a network error.
        const refused = exchangeRefusal(err, 'MCP');
        if (refused) throw refused;
        const msg = err instanceof Error ? err.message : String(err);
        throw new NetworkError(`MCP: cannot connect to ${url.href} (${msg})`, { cause: err });
      }
      this.#client = client;
      return client;
    })();
    return this.#connecting;
  }

  /** The server's tools with their input schemas. */
  async listTools(): Promise<Array<{ name: string; description?: string; inputSchema?: unknown }>> {
    const c = await this.#connect();
    const { tools } = await c.listTools().catch((err: unknown) => {
      throw exchangeRefusal(err, 'MCP tools/list') ?? err;
    });
    this.#tools = new Map(tools.map((t) => [t.name, { inputSchema: t.inputSchema, description: t.description }]));
    return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  }

  /**
   * A tool's input schema: the server's (tools/list, asked once per connection), or core's own copy
   * when `offline` (formula preview), when the server cannot be reached, or when it does not list it.
   */
  async inputSchema(name: string, opts: { offline?: boolean } = {}): Promise<ToolArgSchema | undefined> {
    // Unreachable: core's copy serves; a refused key or plan is the caller's to know (exit 3).
    if (!this.#tools && !opts.offline)
      await this.listTools().catch((err: unknown) => {
        if (err instanceof DchubError && err.kind === 'auth') throw err;
      });
    return (this.#tools?.get(name)?.inputSchema as ToolArgSchema | undefined) ?? knownToolInputSchema(name);
  }

  /** Arguments as the tool's input schema types them (coerceToolArguments); `cacheOnly` never connects. */
  async typedArguments(
    name: string,
    args: Record<string, unknown>,
    opts: { cacheOnly?: boolean } = {},
  ): Promise<Record<string, unknown>> {
    checkToolName(name);
    return coerceToolArguments(await this.inputSchema(name, { offline: opts.cacheOnly }), args);
  }

  /**
   * Calls one of the 29 tools (cached per tool and arguments). A plan wall is thrown as an AuthError
   * carrying the upgrade message, a daily cap as a RateLimitError; a list the server cut for this
   * caller comes back marked `partial` with its PreviewInfo.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    opts: { refresh?: boolean; cacheOnly?: boolean } = {},
  ): Promise<ToolResult> {
    checkToolName(name);
    const key = cacheKey(
      this.rest.callerId,
      this.rest.baseUrl,
      'MCP',
      `${name}#${JSON.stringify(Object.entries(args).sort(([a], [b]) => (a < b ? -1 : 1)))}`,
    );
    const cache = this.rest.cache;
    const now = this.rest.now();
    // Memory first, then the store underneath (another process, the CLI or a kernel, may have cached it).
    const hit = cache ? (cache.peek(key) ?? (await loadToolAnswer(cache, key))) : undefined;
    if (hit && (opts.cacheOnly || (!opts.refresh && hit.answer.expiresAt > now)))
      return { ...(hit.value as ToolResult), fromCache: true };
    if (opts.cacheOnly)
      throw new DchubError('network', `${name}: not fetched yet (no network call during formula preview)`);
    // Refused only on a known, spent allowance; past an assumed one the call goes out with a warning.
    const reservation = this.ledger ? await this.ledger.reserveCall() : { ok: true };
    // The stale rule of REST answers: when the service cannot be asked, the last good answer, with its age and why.
    const stale = (why: string): ToolResult | undefined =>
      hit && {
        ...(hit.value as ToolResult),
        fromCache: true,
        stale: true,
        warnings: [`served from the cache, ${formatAge(this.rest.now() - hit.answer.storedAt)} old: ${why}`],
      };
    if (this.ledger && !reservation.ok) {
      const s = await this.ledger.snapshot();
      const served = stale(`the daily MCP allowance of ${s.limit} calls is spent`);
      if (served) return served;
      throw new QuotaSpentError(s.limit, s.resetsAt);
    }
    const warnings = reservation.warning ? [reservation.warning] : [];
    let res: Awaited<ReturnType<Client['callTool']>>;
    try {
      const c = await this.#connect();
      this.callsSent++;
      res = await c.callTool({ name, arguments: args });
    } catch (err) {
      if (err instanceof DchubError) {
        // Connecting failed: unreachable serves the last good answer; a refused key does not.
        const served = err instanceof NetworkError ? stale('the service could not be reached') : undefined;
        if (served) return served;
        throw err;
      }
      // A key or plan refused in the middle of the session (401/403, JSON-RPC -32001): an AuthError, never
      // stale-served.
      const denied = exchangeRefusal(err, name);
      if (denied) throw denied;
      const msg = err instanceof Error ? err.message : String(err);
      // HTTP 429 on the exchange (the Jupyter relay's MCP allowance spent): read as the tool's own daily cap.
      const refused =
        (err as { code?: unknown }).code === 429
          ? toolDailyCap(name, parseToolText(msg.slice(msg.indexOf('{'))).data)
          : undefined;
      if (refused) return this.#capped(refused, stale);
      // -32602 (invalid params) names the parameter in `data.param` and leads the one-line message with it.
      const param =
        (err as { code?: unknown; data?: { param?: unknown } }).code === -32602
          ? (err as { data?: { param?: unknown } }).data?.param
          : undefined;
      if (typeof param === 'string')
        throw new ValidationError(param, msg.replace(/^MCP error -?\d+:\s*/, '').replace(`${param}: `, ''));
      if (/invalid|required|expected/i.test(msg))
        throw new ValidationError('args', msg.replace(/^MCP error -?\d+:\s*/, ''));
      const served = stale('the service could not be reached');
      if (served) return served;
      throw new NetworkError(`MCP ${name}: ${msg}`, { cause: err });
    }
    warnings.push(...this.#relayNotes.splice(0));
    const content = (res.content as Array<{ type: string; text?: string }> | undefined) ?? [];
    const text = content
      .filter((p) => p.type === 'text')
      .map((p) => p.text ?? '')
      .join('\n');
    const data = res.structuredContent ?? parseToolText(text).data;
    const isError = res.isError === true;
    const capped = toolDailyCap(name, data);
    if (capped) return this.#capped(capped, stale);
    const wall = toolWall(name, data, isError);
    if (wall) throw wall;
    const previewInfo = isError ? undefined : toolPreview(data);
    const result: ToolResult = {
      tool: name,
      data,
      isError,
      text,
      fromCache: false,
      partial: previewInfo !== undefined,
      ...(previewInfo ? { previewInfo } : {}),
    };
    const kept = JSON.stringify(result);
    // An answer that echoes the key is never written down.
    if (!result.isError && cache && !(this.#apiKey && kept.includes(this.#apiKey))) {
      await cache.save(
        key,
        { text: kept, storedAt: now, expiresAt: now + (this.opts.lifetimeMs ?? 3_600_000) },
        result,
      );
    }
    return warnings.length ? { ...result, warnings } : result;
  }

  /**
   * The daily MCP limit, stated by the server: nothing more is sent today; the last good answer serves if there is one.
   */
  async #capped(capped: DchubError, stale: (why: string) => ToolResult | undefined): Promise<ToolResult> {
    await this.ledger?.exhaust();
    const served = stale('the service says the daily MCP limit is reached');
    if (served) return served;
    throw capped;
  }

  async close(): Promise<void> {
    await this.#client?.close().catch(() => undefined);
    this.#client = undefined;
    this.#connecting = undefined;
  }
}

/** A tool answer kept in the store (written by this or another process), read back. */
async function loadToolAnswer(
  cache: ResponseCache,
  key: string,
): Promise<{ answer: StoredAnswer; value: unknown } | undefined> {
  const answer = await cache.load(key);
  if (!answer) return undefined;
  try {
    const value = JSON.parse(answer.text) as ToolResult;
    if (!value || typeof value !== 'object' || typeof value.tool !== 'string') return undefined;
    cache.remember(key, answer, value);
    return { answer, value };
  } catch {
    return undefined;
  }
}

/** A tool answer as a table: its first list of records, else its scalar members as field/value. */
export function toolTable(r: ToolResult): Table | undefined {
  const d = r.data;
  if (Array.isArray(d) && d.every((x) => x && typeof x === 'object'))
    return recordsTable(d as Record<string, unknown>[]);
  if (!d || typeof d !== 'object') return undefined;
  for (const v of Object.values(d as Record<string, unknown>)) {
    if (Array.isArray(v) && v.length && v.every((x) => x && typeof x === 'object' && !Array.isArray(x)))
      return recordsTable(v as Record<string, unknown>[]);
  }
  return fieldTable(d);
}
