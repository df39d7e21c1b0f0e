import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDIN, startExplainStandin, type ExplainStandin } from '../../core/test/support/explain-standin.js';
import { ExcelFixture, PROFILES, call, range, type Harness } from './fixture.js';

/**
 * Issue 20, "what the service explains must reach the user", in Excel under the strict model: what
 * the service explains about an answer (core's `fetchMeta(answer).explanations`) closes the spill,
 * a line a row — on an empty answer in place of the generic "no rows" — and a refusal's hints and
 * valid names follow its words in the cell's error message (core's `errorSentence`, at most 255
 * characters). docs/explanations.md lists every field.
 */
const PRO_KEY = 'excel-explain-pro-0001';

describe.each(PROFILES)('what the service explains, in cells (%s profile)', (profile) => {
  const fx = new ExcelFixture();
  beforeAll(() => fx.start({ seed: 'excel-explain', keys: { pro: PRO_KEY }, profile }));
  afterAll(() => fx.stop());

  let page: Harness;
  beforeAll(async () => {
    page = await fx.harness(PRO_KEY);
  });

  const queue = (iso: string, ttp: number, limit: number | null = null) =>
    call(page, 'QUEUE', [iso, null, ttp, null, null, null, null, null, limit, null]);

  it('QUEUE with max_ttp_months 30 on PJM: no rows, the excluded ISO and the hint as closing rows, no generic "no rows"', async () => {
    const said = await fx.api('/api/v1/interconnection-queue/refined?iso=PJM&max_ttp_months=30', PRO_KEY);
    expect(said.results).toEqual([]);
    const r = await queue('PJM', 30);
    expect(r.error).toBeUndefined();
    const rows = r.value as unknown[][];
    expect(rows[0]).toContain('queue_id'); // the header row
    expect(rows.slice(1).map((row) => row[0])).toEqual([
      `excluded by max_ttp_months 30 (average time to power longer): PJM (${said.isos_excluded_by_ttp.PJM} months)`,
      said._error_mitigation.deterministic_hint,
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/No queued projects match/);
    // Every closing row is one line, the rest of the row blank.
    for (const row of rows.slice(1)) expect(row.slice(1).every((c) => c === '')).toBe(true);
  });

  it('QUEUE with rows: the exclusion still closes the spill, after the data', async () => {
    const r = await queue('PJM,SPP', 30, 5);
    const rows = r.value as unknown[][];
    expect(rows.length).toBeGreaterThan(2);
    expect(String(rows[1][0])).toMatch(/^SPP-\d+/);
    expect(rows.at(-1)![0]).toMatch(
      /^excluded by max_ttp_months 30 \(average time to power longer\): PJM \([\d.]+ months\)$/,
    );
  });

  it('BRIEF of a market the service does not know: #N/A whose message carries the markets it suggests', async () => {
    const said = await fx.api('/api/v1/market-brief/atlantis', PRO_KEY);
    const r = await call(page, 'BRIEF', ['atlantis', null], { address: 'Sheet1!B2' });
    expect(r.error?.code).toBe('#N/A');
    const message = r.error!.message;
    expect(message.length).toBeLessThanOrEqual(255);
    expect(
      message.startsWith(`DC Hub: ${said.error.replace(/[.\s]+$/, '')} — markets to try: ${said.sample_markets[0]}`),
    ).toBe(true);
    expect(message).not.toContain(PRO_KEY);
  });

  it('RANK with an objective the service cannot score: the reason closes the spill, with the caveats', async () => {
    const candidates = range([
      ['id', 'lat', 'lon', 'score'],
      ['a', 39, -77, 80],
      ['b', 40, -78, 60],
    ]);
    const r = await call(page, 'RANK', [candidates, 'score:1,water_stress:-1', null, null, null, null]);
    expect(r.error).toBeUndefined();
    const rows = r.value as unknown[][];
    const closing = rows.map((row) => String(row[0]));
    expect(closing).toContainEqual(expect.stringMatching(/^objective water_stress unavailable: .+/));
    // The reason is the service's own, word for word.
    const body = {
      candidates: [{ id: 'a', lat: 39, lng: -77, score: 80 }],
      objectives: { score: 1, water_stress: -1 },
    };
    const answer = await (
      await fetch(`${fx.sb.url}/api/v1/rank-sites`, {
        method: 'POST',
        headers: { 'X-API-Key': PRO_KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json();
    const reason = answer.objective_status.find((s: { status: string }) => s.status !== 'validated').reason;
    expect(closing).toContain(`objective water_stress unavailable: ${reason}`);
  });

  it('TOOL refusing its arguments: #VALUE! with the hint, the valid regions and the example it gives', async () => {
    const r = await call(page, 'TOOL', ['get_grid_intelligence', null]);
    expect(r.error?.code).toBe('#VALUE!');
    expect(r.error!.message).toMatch(
      /^get_grid_intelligence: region required — hint: Pass region_id, iso, region or market\.; valid regions: ercot, pjm/,
    );
    expect(r.error!.message.length).toBeLessThanOrEqual(255);
  });

  it('CHAIN when the time-to-power cut leaves nothing: the queue’s explanation, never a spent allowance', async () => {
    const r = await call(page, 'CHAIN', ['PJM', 0, 30, 'overall_score:1', null]);
    expect(r.error?.code).toBe('#N/A');
    expect(r.error!.message).toMatch(
      /^DC Hub: no queued project with coordinates survives these filters.* — excluded by max_ttp_months 30 .*PJM/,
    );
    expect(r.error!.message).not.toMatch(/allowance|spent/);
  });
});

describe('what the service explains, in cells: the fields the sandbox cannot produce (a loopback stand-in)', () => {
  const fx = new ExcelFixture();
  let standin: ExplainStandin;
  beforeAll(async () => {
    await fx.start({ seed: 'excel-explain-standin', keys: { pro: PRO_KEY } });
    standin = await startExplainStandin({ cors: true });
  });
  afterAll(async () => {
    await standin?.close();
    await fx.stop();
  });
  const tool = async (scenario: string, ...args: unknown[]) => {
    const h = await fx.harness(PRO_KEY, standin.base(scenario));
    try {
      return await call(h, 'TOOL', args);
    } finally {
      await h.page.close();
    }
  };

  it('TOOL with a key refused at any step of the MCP session: #N/A in the service’s words, with where to get a key', async () => {
    const key = `how to get a key: ${STANDIN.keyUrl}`;
    expect((await tool('list-401', 'get_news', null)).error).toEqual({
      code: '#N/A',
      message: `DC Hub: MCP tools/list: ${STANDIN.keyRefused} — ${key}`,
    });
    expect((await tool('call-401', 'get_news', null)).error).toEqual({
      code: '#N/A',
      message: `DC Hub: get_news: ${STANDIN.keyRefused} — ${key}`,
    });
    expect((await tool('call-rpc', 'get_news', null)).error).toEqual({
      code: '#N/A',
      message: `DC Hub: get_news: ${STANDIN.rpcRefused}`,
    });
    const walled = (await tool('call-403', 'get_news', null)).error!;
    expect(walled.code).toBe('#N/A');
    expect(walled.message).toMatch(
      /^DC Hub: get_news: A key on the Pro plan or above opens this tool over MCP \(your plan: free\)/,
    );
  });

  it('TOOL answering the zero-row time-to-power cut as a tool error: an answer whose closing rows are the exclusion and the hint', async () => {
    const r = await tool('ttp-cut', 'get_interconnection_queue', 'iso=PJM');
    expect(r.error).toBeUndefined();
    const rows = (r.value as unknown[][]).map((row) => row[0]);
    expect(rows.slice(-2)).toEqual([
      'excluded by max_ttp_months 30 (average time to power longer): PJM (50.5 months)',
      STANDIN.ttpHint,
    ]);
  });
});
