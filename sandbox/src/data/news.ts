import { Rng, hash53 } from '../rng.js';
import type { Deal } from './deals.js';
import { AI_CLOUDS, HYPERSCALERS } from './deals.js';
import { OPERATORS } from './infrastructure.js';
import { METROS } from './metros.js';

/**
 * Synthetic industry news. The feed is "refreshed every 5 minutes": the timeline is cut into
 * 5-minute batches, each batch holding 1-4 articles published at the batch boundary, so a new
 * batch appears each time the sandbox clock crosses a boundary. The archive is the latest
 * NEWS_ARCHIVE_SIZE articles. Headlines are built from a seeded pool of templates over real
 * market and company names; the stories themselves are invented.
 */
export const NEWS_BATCH_MS = 5 * 60_000;
export const NEWS_ARCHIVE_SIZE = 5000;
const MAX_PER_BATCH = 4;

export const NEWS_SOURCES = [
  'DCD',
  'DatacenterDynamics',
  'Data Center Frontier',
  'Data Center Knowledge',
  'The Register',
  'Reuters',
  'Bloomberg',
  'Utility Dive',
  'Capacity Media',
  'Light Reading',
  'Fierce Network',
  'SDxCentral',
  'Network World',
  'The Information',
  'Financial Times',
  'The Wall Street Journal',
  'CNBC',
  'TechCrunch',
  'Ars Technica',
  'The Verge',
  'Business Insider',
  'S&P Global',
  'Canary Media',
  'E&E News',
  'POWER Magazine',
  'RTO Insider',
  'Inside Climate News',
  'Bisnow',
  'CoStar',
  'Commercial Observer',
  'GlobeSt',
  'Mission Critical',
  'DCNN',
  'Techerati',
  'Computer Weekly',
  'ZDNet',
  "Tom's Hardware",
  'HPCwire',
  'The Next Platform',
  'ServeTheHome',
  'Nikkei Asia',
  'Business Wire',
  'PR Newswire',
  'GlobeNewswire',
  'Axios',
  'Semafor',
  'DataCenterPost',
  'Data Center Magazine',
  'Telecompetitor',
  'Mobile World Live',
] as const;

export const NEWS_CATEGORIES = [
  'M&A',
  'Construction',
  'Policy',
  'Technology',
  'Sustainability',
  'Earnings',
  'Expansion',
  'AI',
  'Power',
  'Industry News',
] as const;

export interface NewsTemplate {
  title: string;
  summary: string;
  source: string;
  category: string;
  tags: string[];
}

export interface NewsArticleRecord extends NewsTemplate {
  id: number;
  url: string;
  published_at: string;
  publishedMs: number;
  image_url: string;
  is_breaking: boolean;
  relevance_score: number;
}

/** A pool of NEWS_ARCHIVE_SIZE headlines built from markets, operators and deals. */
export function generateNewsPool(seed: string, deals: readonly Deal[]): NewsTemplate[] {
  const rng = new Rng(`${seed}|news`);
  const markets = METROS.slice(0, 80);
  const pool: NewsTemplate[] = [];
  const companies = [...OPERATORS, ...HYPERSCALERS, ...AI_CLOUDS];
  for (let i = 0; i < NEWS_ARCHIVE_SIZE; i++) {
    const m = rng.pick(markets);
    const op = rng.pick(companies);
    const mw = Math.round(rng.logRange(10, 1500));
    const kind = rng.weighted([
      ['deal', 20],
      ['construction', 20],
      ['power', 14],
      ['policy', 10],
      ['ai', 14],
      ['sustainability', 8],
      ['earnings', 7],
      ['tech', 7],
    ] as const);
    let title: string;
    let summary: string;
    let category: string;
    const tags = [m.slug];
    if (kind === 'deal') {
      const d = rng.pick(deals);
      tags.length = 0;
      tags.push(d.market_slug, d.type);
      category = 'M&A';
      title = rng.pick([
        `${d.buyer} ${d.type === 'lease' ? 'signs lease with' : d.type === 'merger' ? 'agrees merger with' : 'strikes deal with'} ${d.seller} in ${d.market}`,
        `${d.buyer} and ${d.seller}: ${d.value_display} ${d.type.replace('_', ' ')} in ${d.market}`,
        `${d.seller} ${d.type === 'acquisition' ? 'sold to' : 'partners with'} ${d.buyer}${d.mw ? ` in ${d.mw} MW ${d.market} deal` : ''}`,
      ]);
      summary = `${d.buyer} and ${d.seller} announced ${d.type === 'acquisition' || d.type === 'investment' ? 'an' : 'a'} ${d.type.replace('_', ' ')} (${d.value_display}) covering ${d.mw ?? 'undisclosed'} MW in ${d.market}.`;
    } else if (kind === 'construction') {
      category = rng.pick(['Construction', 'Expansion']);
      title = rng.pick([
        `${op} breaks ground on ${mw} MW campus in ${m.name}`,
        `${op} files plans for ${mw} MW data center in ${m.name}`,
        `${m.name} approves ${op} data center expansion`,
        `${op} tops out new building at ${m.name} campus`,
      ]);
      summary = `${op} is moving ahead with ${mw} MW of new capacity in the ${m.name} market, according to filings.`;
    } else if (kind === 'power') {
      category = 'Power';
      title = rng.pick([
        `Utility warns of ${mw} MW data center load growth in ${m.name}`,
        `${m.iso} interconnection queue swells as ${m.name} demand climbs`,
        `${op} signs power purchase agreement for ${m.name} campus`,
        `Grid constraints push ${m.name} data center timelines out`,
      ]);
      summary = `Power availability remains the gating factor for ${m.name}, with ${mw} MW of requests cited.`;
    } else if (kind === 'policy') {
      category = 'Policy';
      title = rng.pick([
        `${m.state || m.country} lawmakers weigh data center tax incentives`,
        `${m.name} county considers zoning limits on data centers`,
        `Regulators review large-load tariff affecting ${m.name}`,
      ]);
      summary = `Officials in ${m.name} are reviewing rules that would affect new data center development.`;
    } else if (kind === 'ai') {
      category = 'AI';
      title = rng.pick([
        `${op} plans ${mw} MW AI campus near ${m.name}`,
        `GPU cloud demand drives ${op} expansion in ${m.name}`,
        `${op} commits to liquid-cooled AI halls in ${m.name}`,
      ]);
      summary = `${op} is targeting AI training and inference workloads with ${mw} MW in ${m.name}.`;
    } else if (kind === 'sustainability') {
      category = 'Sustainability';
      title = rng.pick([
        `${op} reports water use cut at ${m.name} facilities`,
        `${op} adds ${mw} MW of renewable supply for ${m.name} operations`,
      ]);
      summary = `${op} outlined sustainability measures for its ${m.name} portfolio.`;
    } else if (kind === 'earnings') {
      category = 'Earnings';
      title = rng.pick([
        `${op} raises capex guidance on data center demand`,
        `${op} quarterly results beat on leasing strength`,
      ]);
      summary = `${op} cited strong data center demand, including in ${m.name}.`;
    } else {
      category = rng.pick(['Technology', 'Industry News']);
      title = rng.pick([
        `${op} deploys new cooling design in ${m.name}`,
        `${op} opens interconnection hub in ${m.name}`,
      ]);
      summary = `${op} announced a technology update at its ${m.name} site.`;
    }
    pool.push({
      title,
      summary: `${summary} (Synthetic sandbox article.)`,
      source: rng.pick(NEWS_SOURCES),
      category,
      tags,
    });
  }
  return pool;
}

const batchSize = (seed: string, batch: number): number => 1 + (hash53(`${seed}|newsbatch|${batch}`) % MAX_PER_BATCH);

/**
 * The archive as of `nowMs`, newest first: the latest NEWS_ARCHIVE_SIZE articles whose batch
 * boundary is at or before `nowMs`.
 */
export function newsArchive(seed: string, pool: readonly NewsTemplate[], nowMs: number): NewsArticleRecord[] {
  const out: NewsArticleRecord[] = [];
  let batch = Math.floor(nowMs / NEWS_BATCH_MS);
  while (out.length < NEWS_ARCHIVE_SIZE) {
    const at = batch * NEWS_BATCH_MS;
    const n = batchSize(seed, batch);
    for (let j = n - 1; j >= 0 && out.length < NEWS_ARCHIVE_SIZE; j--) {
      const id = batch * MAX_PER_BATCH + j;
      const t = pool[id % pool.length];
      const h = hash53(`${seed}|newsarticle|${id}`);
      out.push({
        id,
        ...t,
        url: `https://dchub.cloud/sandbox/news/${id}`,
        published_at: new Date(at).toISOString(),
        publishedMs: at,
        image_url: '',
        is_breaking: h % 40 === 0,
        relevance_score: h % 100,
      });
    }
    batch--;
  }
  return out;
}
