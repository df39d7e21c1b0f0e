import { createHash } from 'node:crypto';
import { Rng } from '../rng.js';
import { METROS } from './metros.js';

/**
 * Published model-evaluation runs ("receipts", spec §2.9): a model was given the DC Hub API and
 * asked for a siting verdict; each receipt records the calls it made and what it concluded.
 * A dozen synthetic runs; model names are public, the runs are invented.
 */
export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const MODELS = [
  { model_id: 'claude-sonnet-4-5', platform: 'anthropic', platform_label: 'Anthropic API' },
  { model_id: 'claude-opus-4-1', platform: 'anthropic', platform_label: 'Anthropic API' },
  { model_id: 'gpt-5', platform: 'openai', platform_label: 'OpenAI API' },
  { model_id: 'gpt-4.1', platform: 'openai', platform_label: 'OpenAI API' },
  { model_id: 'gemini-2.5-pro', platform: 'google', platform_label: 'Google AI Studio' },
  { model_id: 'mistral-large-2', platform: 'mistral', platform_label: 'Mistral La Plateforme' },
  { model_id: 'llama-4-maverick', platform: 'openrouter', platform_label: 'OpenRouter' },
] as const;

export const RECEIPT_EXCERPT_LIMIT = 600;

export interface ReceiptRecord {
  run_id: number;
  model_id: string;
  platform: string;
  platform_label: string;
  status: string;
  evaluated_at: string;
  published_at: string;
  publishedMs: number;
  model_replies: number;
  http_5xx_seen: number;
  harness_notes: string;
  api_calls: Array<{
    n: number;
    method: string;
    url: string;
    executed: boolean;
    http_status: number | null;
    request_body: unknown;
    response_bytes: number;
    response_excerpt: string;
    response_sha256: string;
    response_truncated_by_harness: boolean;
  }>;
  assessment: string;
  verdict: Record<string, unknown>;
  verdict_sha256: string;
  verdict_vs_previous: 'first_run' | 'changed' | 'unchanged';
}

export function generateReceipts(seed: string): ReceiptRecord[] {
  const rng = new Rng(`${seed}|receipts`);
  const markets = METROS.filter(
    (m) => m.country === 'US' && ['PJM', 'ERCOT', 'MISO', 'CAISO', 'SPP', 'NYISO', 'ISO-NE'].includes(m.iso),
  ).slice(0, 20);
  const out: ReceiptRecord[] = [];
  const lastVerdict = new Map<string, string>();
  const base = Date.UTC(2026, 5, 1);
  for (let i = 0; i < 12; i++) {
    const model = MODELS[i % MODELS.length];
    const m = rng.pick(markets);
    const evaluated = base + i * 11 * 86_400_000 + rng.int(0, 86_399) * 1000;
    const published = evaluated + rng.int(1, 5) * 86_400_000;
    const minMw = rng.pick([50, 100, 200]);
    const calls: Array<{
      method: string;
      url: string;
      body: unknown;
      executed: boolean;
      status: number | null;
      payload: string;
    }> = [
      {
        method: 'GET',
        url: `https://dchub.cloud/api/v1/interconnection-queue/refined?iso=${m.iso}&min_mw=${minMw}&limit=5`,
        body: null,
        executed: true,
        status: 200,
        payload: JSON.stringify({
          _entity: 'queue_results',
          ok: true,
          count_returned: 5,
          count_total_matching: rng.int(40, 400),
          results: [{ iso: m.iso, capacity_mw: minMw + rng.int(0, 400), lat: m.lat, lng: m.lon }],
          note: 'synthetic sandbox receipt',
        }),
      },
      {
        method: 'GET',
        url: `https://dchub.cloud/api/site-score?lat=${m.lat}&lon=${m.lon}&capacity_mw=${minMw}`,
        body: null,
        executed: true,
        status: rng.chance(0.15) ? 503 : 200,
        payload: JSON.stringify({
          success: true,
          overall_score: rng.int(55, 90),
          location: { lat: m.lat, lon: m.lon, state: m.state },
        }),
      },
      {
        method: 'GET',
        url: `https://dchub.cloud/api/v1/dcpi/scores/${m.slug}`,
        body: null,
        executed: true,
        status: 200,
        payload: JSON.stringify({
          market_slug: m.slug,
          verdict: rng.pick(['BUILD', 'CAUTION', 'AVOID']),
          composite_score: rng.int(30, 90),
        }),
      },
    ];
    if (rng.chance(0.5)) {
      calls.push({
        method: 'POST',
        url: 'https://dchub.cloud/api/v1/rank-sites',
        body: { candidates: [{ id: 'a', lat: m.lat, lng: m.lon, power_score: 70 }], objectives: { power_score: 1 } },
        executed: rng.chance(0.8),
        status: null,
        payload: JSON.stringify({ _entity: 'ranked_sites', ok: true, ranked: [{ rank: 1, id: 'a' }] }),
      });
    }
    const api_calls = calls.map((c, n) => {
      const padded = c.payload + ' '.repeat(rng.int(0, 2000));
      const excerpt = padded.slice(0, RECEIPT_EXCERPT_LIMIT);
      return {
        n: n + 1,
        method: c.method,
        url: c.url,
        executed: c.executed,
        http_status: c.executed ? (c.status ?? 200) : null,
        request_body: c.body,
        response_bytes: c.executed ? Buffer.byteLength(padded) : 0,
        response_excerpt: c.executed ? excerpt : '',
        response_sha256: sha256(c.executed ? excerpt : ''),
        response_truncated_by_harness: c.executed && padded.length > RECEIPT_EXCERPT_LIMIT,
      };
    });
    const verdict = {
      market: m.slug,
      recommendation: rng.pick(['BUILD', 'CAUTION', 'AVOID']),
      confidence: rng.pick(['low', 'medium', 'high']),
      min_mw: minMw,
    };
    const verdictText = JSON.stringify(verdict);
    const prev = lastVerdict.get(model.model_id);
    lastVerdict.set(model.model_id, verdictText);
    out.push({
      run_id: 1001 + i,
      ...model,
      status: 'ok',
      evaluated_at: new Date(evaluated).toISOString(),
      published_at: new Date(published).toISOString(),
      publishedMs: published,
      model_replies: rng.int(2, 8),
      http_5xx_seen: api_calls.filter((c) => c.http_status !== null && c.http_status >= 500).length,
      harness_notes: 'Sandbox receipt: synthetic run generated from DCHUB_SEED.',
      api_calls,
      assessment: `${model.model_id} chained the refined queue into site scoring for ${m.name} and gave a ${verdict.recommendation} verdict with ${verdict.confidence} confidence.`,
      verdict,
      verdict_sha256: sha256(verdictText),
      verdict_vs_previous: prev === undefined ? 'first_run' : prev === verdictText ? 'unchanged' : 'changed',
    });
  }
  return out;
}

export const RECEIPT_PROTOCOL = {
  auth: 'Each run used a Developer-plan key sent as X-API-Key.',
  browsing: 'No web browsing; the model could call only the HTTP tool.',
  consent: 'Runs are published only after operator review.',
  harness: 'A fixed harness executes the calls the model requests and returns the bodies.',
  kickoff_prompt: 'Find a site for a 100 MW data center using the DC Hub API and give a verdict.',
  system_prompt: 'You are evaluating a data center market intelligence API.',
  model_call_limit: 12,
  reply_token_limit: 4096,
  model_selection: 'Current flagship models of each platform at evaluation time.',
  origin_allowlist: ['https://dchub.cloud'],
  truncation_length: RECEIPT_EXCERPT_LIMIT,
};
