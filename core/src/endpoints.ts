import type { Endpoint } from './resource.js';
import { AGENT_ENDPOINTS } from './resources/agent.js';
import { BRIEF_ENDPOINTS } from './resources/briefs.js';
import { ENERGY_ENDPOINTS } from './resources/energy.js';
import { FACILITY_ENDPOINTS } from './resources/facilities.js';
import { FEED_ENDPOINTS } from './resources/feeds.js';
import { MARKET_ENDPOINTS } from './resources/markets.js';
import { queueEndpoint } from './resources/queue.js';
import { analyzeParcelEndpoint, rankSitesEndpoint, siteScoreEndpoint } from './resources/sites.js';

export {
  endpointPath,
  type AnswerOf,
  type Endpoint,
  type EndpointRequest,
  type InputOf,
  type Resource,
} from './resource.js';

/**
 * Every endpoint of the DC Hub interface, each written once beside its resource (resources/*.ts):
 * core's `call` runs them, the sandbox's route registry serves and documents them.
 */
export const ENDPOINTS = {
  health: AGENT_ENDPOINTS.health,
  siteScore: siteScoreEndpoint,
  queue: queueEndpoint,
  rankSites: rankSitesEndpoint,
  analyzeParcel: analyzeParcelEndpoint,
  ...MARKET_ENDPOINTS,
  ...BRIEF_ENDPOINTS,
  ...FACILITY_ENDPOINTS,
  ...FEED_ENDPOINTS,
  ...ENERGY_ENDPOINTS,
  agentCapabilities: AGENT_ENDPOINTS.agentCapabilities,
  agentWhoami: AGENT_ENDPOINTS.agentWhoami,
  agentFacilities: AGENT_ENDPOINTS.agentFacilities,
  agentStats: AGENT_ENDPOINTS.agentStats,
  onboard: AGENT_ENDPOINTS.onboard,
  receipts: AGENT_ENDPOINTS.receipts,
  receipt: AGENT_ENDPOINTS.receipt,
  keyClaim: AGENT_ENDPOINTS.keyClaim,
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

const segmentsOf = (path: string) => path.split('/');

/** Whether `path` is one of the endpoint's (a `:name` segment matches any one segment). */
function answersAt(e: Endpoint, path: string): boolean {
  const asked = segmentsOf(path);
  return [e.path, ...(e.aliases ?? [])].some((p) => {
    const own = segmentsOf(p);
    return own.length === asked.length && own.every((s, i) => (s.startsWith(':') ? asked[i] !== '' : s === asked[i]));
  });
}

/** The endpoint that answers a method and path (a relayed request's), if any. */
export function endpointAt(method: string, path: string): Endpoint | undefined {
  const m = method.toLowerCase();
  const all: readonly Endpoint[] = Object.values(ENDPOINTS);
  return (
    all.find((e) => e.method === m && answersAt(e, path) && !e.path.includes(':')) ??
    all.find((e) => e.method === m && answersAt(e, path))
  );
}
