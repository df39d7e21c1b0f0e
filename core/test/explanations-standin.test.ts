import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../src/cli/main.js';
import { errorFromResponse, explainAnswer } from '../src/index.js';
import { dchub, FORMATS, PRO } from './support/explain-cli.js';
import { STANDIN, startExplainStandin, type ExplainStandin } from './support/explain-standin.js';

/**
 * Issue 20 in the CLI, continued (explanations.test.ts has the fields the sandbox produces): the
 * explanatory fields the sandbox cannot produce, from a loopback stand-in, and the words of fields no
 * host asks for today.
 */

describe('what the sandbox cannot produce, from a loopback stand-in', () => {
  let standin: ExplainStandin;
  let dir: string;
  beforeAll(async () => {
    standin = await startExplainStandin();
    dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-explain-standin-'));
  });
  afterAll(async () => {
    await standin?.close();
    await rm(dir, { recursive: true, force: true });
  });
  const run = (scenario: string, key: string | undefined, ...args: string[]) =>
    dchub(standin.base(scenario), dir, key, '--no-cache', ...args);

  it.each(FORMATS)(
    'tool --format %s: a key refused after the handshake — at tools/list, at tools/call, as JSON-RPC -32001, as a tool error — is exit 3',
    async (format) => {
      const listed = await run('list-401', PRO, 'tool', 'get_news', '--format', format);
      expect(listed.code).toBe(EXIT.auth);
      expect(listed.lines).toEqual([
        `dchub: MCP tools/list: ${STANDIN.keyRefused}`,
        `dchub: how to get a key: ${STANDIN.keyUrl}`,
      ]);
      const called = await run('call-401', PRO, 'tool', 'get_news', '--format', format);
      expect(called.code).toBe(EXIT.auth);
      expect(called.lines).toEqual([
        `dchub: get_news: ${STANDIN.keyRefused}`,
        `dchub: how to get a key: ${STANDIN.keyUrl}`,
      ]);
      const walled = await run('call-403', PRO, 'tool', 'get_news', '--format', format);
      expect(walled.code).toBe(EXIT.auth);
      expect(walled.lines).toEqual([
        `dchub: get_news: ${STANDIN.planWall.replace(/\.$/, '')} (your plan: free); upgrade: https://dchub.cloud/pricing`,
      ]);
      const revoked = await run('call-rpc', PRO, 'tool', 'get_news', '--format', format);
      expect(revoked.code).toBe(EXIT.auth);
      expect(revoked.lines).toEqual([`dchub: get_news: ${STANDIN.rpcRefused}`]);
      const tool = await run('call-key-error', PRO, 'tool', 'get_news', '--format', format);
      expect(tool.code).toBe(EXIT.auth);
      expect(tool.lines).toEqual([
        `dchub: get_news: ${STANDIN.keyRefused}`,
        `dchub: how to get a key: ${STANDIN.keyUrl}`,
      ]);
      for (const r of [listed, called, walled, revoked, tool]) expect(r.out).toBe('');
    },
  );

  it.each(FORMATS)(
    'tool --format %s: the zero-row time-to-power cut the MCP layer marks isError is an answer with its hint, exit 0',
    async (format) => {
      const r = await run('ttp-cut', PRO, 'tool', 'get_interconnection_queue', 'iso=PJM', '--format', format);
      expect(r.code).toBe(EXIT.ok);
      expect(r.lines).toEqual([
        'dchub: excluded by max_ttp_months 30 (average time to power longer): PJM (50.5 months)',
        `dchub: ${STANDIN.ttpHint}`,
      ]);
    },
  );

  it.each(FORMATS)('dcpi --format %s: an alias the service resolved, and why there is no forecast', async (format) => {
    const r = await run('rest', undefined, 'dcpi', 'dfw', '--format', format);
    expect(r.code).toBe(EXIT.ok);
    expect(r.lines).toEqual([
      'dchub: dfw is answered as dallas',
      `dchub: no forecast: ${STANDIN.forecastNote} (insufficient_history; 2 samples in 30 days)`,
    ]);
  });

  it.each(FORMATS)(
    'rank --format %s: candidates left out (require_complete, the candidate contract) and the coverage note',
    async (format) => {
      const csv = path.join(dir, 'sites.csv');
      await writeFile(csv, 'id,lat,lon,score\nsite-a,39,-77,80\nsite-b,40,-78,60\nsite-c,41,-79,\n');
      const r = await run(
        'rest',
        undefined,
        'rank',
        csv,
        '--objectives',
        'score:1,water_stress:-1',
        '--format',
        format,
      );
      expect(r.code).toBe(EXIT.ok);
      expect(r.lines).toEqual([
        `dchub: objective water_stress unavailable: ${STANDIN.objectiveReason}`,
        `dchub: ${STANDIN.coverageNote}`,
        'dchub: 1 candidate dropped by the constraints',
        'dchub: left out, missing objectives (require_complete): site-c (score)',
        'dchub: expired candidate ids (ask the queue again for fresh ones): cand_00000000000000000001',
        'dchub: unknown candidate ids: cand_ffffffffffffffffffff',
        'dchub: candidate ids the service could not read: cand_00000000000000000002',
        `dchub: ${STANDIN.readFailedNote}`,
      ]);
    },
  );
});

describe('the words of fields no host asks for today', () => {
  it('health: a degraded service’s reasons and note; a 503 health answer carries them as its explanation', () => {
    const degraded = {
      status: 'degraded',
      uptime_seconds: 60,
      degrade_reasons: ['pool_critical:95%'],
      note: 'Pool busy or DB unreachable - counts unavailable',
    };
    expect(explainAnswer(degraded)).toEqual([
      'service degraded: pool_critical:95% — Pool busy or DB unreachable - counts unavailable',
    ]);
    expect(explainAnswer({ status: 'healthy', uptime_seconds: 60, note: 'synthetic data' })).toEqual([]);
    const err = errorFromResponse(503, degraded);
    expect(err.message).toBe('HTTP 503');
    expect(err.explanations).toEqual([
      'service degraded: pool_critical:95% — Pool busy or DB unreachable - counts unavailable',
    ]);
  });

  it('stats served from the service’s own cache; fallback prices; an answer’s user message and generic-answer note', () => {
    expect(explainAnswer({ degraded: true, cache_age_seconds: 120 })).toEqual([
      'the service answered from its own cached copy (120 s old): its database could not be read',
    ]);
    expect(explainAnswer({ state: 'TX', data_quality: 'fallback', source: 'EIA 2024 Historical Data' })).toEqual([
      'not live: fallback data (EIA 2024 Historical Data)',
    ]);
    expect(explainAnswer({ data_quality: 'live', source: 'EIA v2 API (Live)' })).toEqual([]);
    expect(
      explainAnswer({
        user_message: 'Shown to the user.',
        show_to_user: true,
        is_generic_answer: true,
        answer_note: 'No category matched; a general answer.',
      }),
    ).toEqual(['Shown to the user.', 'No category matched; a general answer.']);
    // Valid-name lists and hints are read from refusals only: in an answer they may mean something else.
    expect(explainAnswer({ available: ['a'], hint: 'x', auth_instructions: 'https://example.test' })).toEqual([]);
  });
});
