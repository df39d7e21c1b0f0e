/**
 * DC Hub's Excel cards (entity values): one module per kind — markets (DCPI), sites, queue
 * projects — built from core's read answers and what the host supports. The rules of a card
 * (property names, formats, sections, icons, attribution, what a licence keeps out) live here
 * once; the Excel functions only call these.
 */
export {
  FORMATS,
  type CardHost,
  type CardValue,
  type EntityValue,
  type Attribution,
  type PropertyMetadata,
} from './values.js';
export { DCHUB_PROVIDER, type CardContext } from './entity.js';
export { dcpiAttribution, leaderboardCards, marketCard, marketSlug } from './markets.js';
export { SITE_CARD_LEAVES_OUT, siteCard } from './sites.js';
export { projectCard, projectCards } from './projects.js';
export { cardCandidates, isCard } from './candidates.js';
