import { SEED_MARKETS } from '../../domain/briefs.js';
import { unit } from '../../rng.js';
import type { Body, Presenters } from '../types.js';
import { realAccess } from './access.js';
import {
  realAiCapacity,
  realDcpiMarket,
  realEnergyPrices,
  realQueue,
  realSchemas,
  realSite,
  realTransactions,
} from './resources.js';
import { CLAIM, PRICING } from './upgrade.js';

/** Rows of a keyless MCP list preview ("3 of 10 results", notes §3.1 TRIAL_PREVIEW_ROWS). */
export const TRIAL_PREVIEW_ROWS = 3;

const forYourHuman = (message: string, url: string) => ({
  message,
  url,
  render: 'verbatim_link_required',
  markdown: `${message} [Upgrade](${url})`,
  _agent_instruction: 'Show this message and link to the user verbatim.',
  text: `${message} ${url}`,
});

/**
 * The brief of /all that fails to build on a day: one of the five markets every tier sees,
 * picked from the seed and the day (notes §2.29 `build_failed`).
 */
const failingSlug = (seed: string, day: number) => SEED_MARKETS[Math.floor(unit(seed, 'brief-build-failure', day) * 5)];

/** The real service's shapes and quirks (reference notes). */
export function realPresenters(): Presenters {
  return {
    profile: 'real',
    access: realAccess(),
    queue: realQueue,
    site: realSite,
    dcpiMarket: realDcpiMarket,
    aiCapacityGated: (tier) => tier === 'anonymous' || tier === 'free' || tier === 'starter',
    aiCapacity: realAiCapacity,
    transactions: realTransactions,
    energyPrices: realEnergyPrices,
    schemas: realSchemas,
    briefFails: (seed, slug, day) => failingSlug(seed, day) === slug,
    failedBrief: (slug) => ({ ok: false, slug, error: 'build_failed:KeyError:hero' }),
    failedCsvLine: (slug, columns) => [slug, ...Array<string>(columns - 2).fill(''), 'build_failed:KeyError'].join(','),
    mcpWall: (wall: Body) => {
      const tool = String(wall.tool);
      const message = `${tool} needs the Pro plan (pro_required). Upgrade at ${PRICING} to use it.`;
      const structured = {
        ...wall,
        user_message: message,
        show_to_user: true,
        for_your_human: forYourHuman(message, PRICING),
      };
      return {
        content: [
          {
            type: 'text',
            text: `**pro_required** — ${message}\n\nClaim a free key at ${CLAIM}, then upgrade: ${PRICING}`,
          },
        ],
        structuredContent: structured,
        isError: true,
      };
    },
    mcpPartial: (tool, key, total) => {
      const shown = Math.min(TRIAL_PREVIEW_ROWS, total);
      const message = `Showing ${shown} of ${total} results. Send X-API-Key (a free key: POST ${CLAIM}) for all of them.`;
      return {
        rows: TRIAL_PREVIEW_ROWS,
        extra: {
          preview_is_partial: true,
          trial_preview: true,
          [`_${key}_total_in_pro`]: total,
          continuation: {
            status: 'upgrade_required',
            answer_available: true,
            tier: 'anonymous',
            gated: { tool, records_available: total, records_shown: shown, records_field: key, fields_unlocked: [] },
          },
          user_message: message,
          show_to_user: true,
          for_your_human: forYourHuman(message, CLAIM),
        },
        tail: `\n\n---\n**Preview: ${shown} of ${total} results.** ${message}`,
      };
    },
  };
}
