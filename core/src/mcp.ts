import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_DAILY_ALLOWANCE, QuotaLedger } from './cache/ledger.js';
import { cacheKey } from './cache/keys.js';
import { answerFacts, readAnswerHeader } from './cache/relayed.js';
import { gatewayNotice, isGatewayAnswer } from './cache/gateway.js';
import type { StoredAnswer } from './cache/responses.js';
import { MemoryStore } from './cache/store.js';
import type { DchubClient } from './client.js';
import { checkApiKey } from './api-key.js';
import { redirectSafeFetch } from './http/redirects.js';
import { DchubError, NetworkError, QuotaSpentError, ValidationError } from './errors.js';
import { exchangeRefusal, parseToolText, toolDailyCap, toolPreview, toolWall } from './mcp-answers.js';
import { MCP_PATH, MCP_TOOL_NAMES } from './schemas/mcp.js';
import { VERSION } from './version.js';
import { staleText } from './notes.js';
import { coerceToolArguments, knownToolInputSchema, type ToolArgSchema } from './tool-args.js';
import { TOOL_ANSWER_META, loadToolAnswer, saidByServer, withServerAnswer, type ToolResult } from './mcp-result.js';

export { TOOL_ANSWER_META, serverAnswerOf, toolTable, type ServerToolAnswer, type ToolResult } from './mcp-result.js';

/** How long a call waits for another process asking the same (its answer then serves both). */
const TOOL_CLAIM_WAIT_MS = 30_000;

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

  /** The server's tools with their input schemas (and whatever else it lists with them: titles, annotations). */
  async listTools(): Promise<Array<{ name: string; description?: string; inputSchema?: unknown }>> {
    const { tools } = await this.#session((c) => c.listTools()).catch((err: unknown) => {
      throw exchangeRefusal(err, 'MCP tools/list') ?? err;
    });
    this.#tools = new Map(tools.map((t) => [t.name, { inputSchema: t.inputSchema, description: t.description }]));
    return tools.map((t) => ({ ...t }));
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
    // Memory first, then the store underneath (another process, the CLI or a kernel, may have cached it).
    const hit = cache ? (cache.peek(key) ?? (await loadToolAnswer(cache, key))) : undefined;
    if (hit && (opts.cacheOnly || (!opts.refresh && hit.answer.expiresAt > this.rest.now()))) return this.#served(hit);
    if (opts.cacheOnly)
      throw new DchubError('network', `${name}: not fetched yet (no network call during formula preview)`);
    // Another process asking the same now (a gateway's replicas, CLIs over one directory): one call, its answer for
    // all. The claim only saves calls: without it (the store failing) the call goes out.
    const claim =
      cache?.store.claim && !opts.refresh
        ? await cache.store.claim(key, { waitMs: TOOL_CLAIM_WAIT_MS }).catch(() => undefined)
        : undefined;
    try {
      const landed = claim && cache ? await loadToolAnswer(cache, key) : undefined;
      if (landed && landed.answer.expiresAt > this.rest.now() && landed.answer.storedAt !== hit?.answer.storedAt)
        return this.#served(landed);
      return await this.#ask(name, args, key, hit);
    } finally {
      if (typeof claim === 'function') await claim().catch(() => undefined);
    }
  }

  /** A cached answer as served: from the cache, with its age. */
  #served(hit: { answer: StoredAnswer; value: unknown }): ToolResult {
    return { ...(hit.value as ToolResult), fromCache: true, ageMs: Math.max(0, this.rest.now() - hit.answer.storedAt) };
  }

  /** The call itself: the allowance reserved, the server asked, its answer read and kept. */
  async #ask(
    name: string,
    args: Record<string, unknown>,
    key: string,
    hit: { answer: StoredAnswer; value: unknown } | undefined,
  ): Promise<ToolResult> {
    // The stale rule of REST answers: when the service cannot be asked, the last good answer, with its age and why.
    const stale = (why: string): ToolResult | undefined => {
      if (!hit) return undefined;
      const served = this.#served(hit);
      return { ...served, stale: true, reason: why, warnings: [staleText(served.ageMs ?? 0, why)] };
    };
    // Refused only on a known, spent allowance; past an assumed one the call goes out with a warning. A ledger that
    // refuses by throwing (a gateway caller's spent share) still lets the last good answer serve.
    let reservation: Awaited<ReturnType<QuotaLedger['reserveCall']>> = { ok: true };
    try {
      if (this.ledger) reservation = await this.ledger.reserveCall();
    } catch (err) {
      const served = err instanceof QuotaSpentError ? stale(err.message) : undefined;
      if (served) return served;
      throw err;
    }
    if (this.ledger && !reservation.ok) {
      const s = await this.ledger.snapshot();
      const served = stale(`the daily MCP allowance of ${s.limit} calls is spent`);
      if (served) return served;
      throw new QuotaSpentError(s.limit, s.resetsAt);
    }
    const warnings = reservation.warning ? [reservation.warning] : [];
    let res: Awaited<ReturnType<Client['callTool']>>;
    try {
      res = await this.#session((c) => {
        this.callsSent++;
        return c.callTool({ name, arguments: args });
      });
    } catch (err) {
      return this.#failed(err, name, stale);
    }
    warnings.push(...this.#relayNotes.splice(0));
    return this.#answered(name, key, res, warnings, stale);
  }

  /**
   * The session's client for `call`; a session the server ended (404: evicted when idle, or the server restarted)
   * is opened again, once, so a long-lived client (a gateway replica, an open workbook) keeps working.
   */
  async #session<T>(call: (c: Client) => Promise<T>): Promise<T> {
    const c = await this.#connect();
    try {
      return await call(c);
    } catch (err) {
      if ((err as { code?: unknown } | null)?.code !== 404) throw err;
      if (this.#client === c) {
        this.#client = undefined;
        this.#connecting = undefined;
        void c.close().catch(() => undefined);
      }
      return call(await this.#connect());
    }
  }

  /** A call that failed: the last good answer when the service cannot be asked, else the typed error. */
  async #failed(err: unknown, name: string, stale: (why: string) => ToolResult | undefined): Promise<ToolResult> {
    if (err instanceof DchubError) {
      // Connecting failed: unreachable serves the last good answer; a refused key does not.
      const served = err instanceof NetworkError ? stale('the service could not be reached') : undefined;
      if (served) return served;
      throw err;
    }
    // A key or plan refused in the middle of the session (401/403, JSON-RPC -32001): an AuthError, never stale-served.
    const denied = exchangeRefusal(err, name);
    if (denied) throw saidByServer(denied, err);
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
      throw saidByServer(
        new ValidationError(param, msg.replace(/^MCP error -?\d+:\s*/, '').replace(`${param}: `, '')),
        err,
      );
    if (/invalid|required|expected/i.test(msg))
      throw saidByServer(new ValidationError('args', msg.replace(/^MCP error -?\d+:\s*/, '')), err);
    const served = stale('the service could not be reached');
    if (served) return served;
    throw saidByServer(new NetworkError(`MCP ${name}: ${msg}`, { cause: err }), err);
  }

  /** The server's answer read: a cap or a wall thrown, an answer kept (not an error, nor one echoing the key). */
  async #answered(
    name: string,
    key: string,
    res: Awaited<ReturnType<Client['callTool']>>,
    warnings: string[],
    stale: (why: string) => ToolResult | undefined,
  ): Promise<ToolResult> {
    const content = (res.content as Array<{ type: string; text?: string }> | undefined) ?? [];
    const text = content
      .filter((p) => p.type === 'text')
      .map((p) => p.text ?? '')
      .join('\n');
    const data = res.structuredContent ?? parseToolText(text).data;
    const isError = res.isError === true;
    const previewInfo = isError ? undefined : toolPreview(data);
    const result: ToolResult = {
      tool: name,
      data,
      isError,
      text,
      fromCache: false,
      partial: previewInfo !== undefined,
      ...(previewInfo ? { previewInfo } : {}),
      ...(res.structuredContent !== undefined ? { structured: true } : {}),
    };
    const capped = toolDailyCap(name, data);
    if (capped) return this.#capped(withServerAnswer(capped, { result }), stale);
    const wall = toolWall(name, data, isError);
    if (wall) throw withServerAnswer(wall, { result });
    // A gateway's word on how it obtained the answer: from its cache (how old), stale (why), past an allowance.
    const facts = answerFacts(res._meta?.[TOOL_ANSWER_META]);
    if (facts?.allowance) warnings.push(facts.allowance);
    if (facts?.stale) {
      const why = facts.reason ?? 'the service could not be asked';
      const served = { ...result, fromCache: true, stale: true, ageMs: facts.ageMs, reason: why };
      return { ...served, warnings: [staleText(facts.ageMs, why), ...warnings] };
    }
    const kept = JSON.stringify(result);
    const cache = this.rest.cache;
    // An answer that echoes the key is never written down.
    if (!result.isError && cache && !(this.#apiKey && kept.includes(this.#apiKey))) {
      // As old as the gateway says it is: its lifetime runs from when the service answered.
      const storedAt = this.rest.now() - (facts?.ageMs ?? 0);
      await cache.save(
        key,
        { text: kept, storedAt, expiresAt: storedAt + (this.opts.lifetimeMs ?? 3_600_000) },
        result,
      );
    }
    const answered = facts?.fromCache ? { ...result, fromCache: true, ageMs: facts.ageMs } : result;
    return warnings.length ? { ...answered, warnings } : answered;
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
