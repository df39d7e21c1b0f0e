import type { ReplayCase } from '../types.js';
import { briefCases } from './briefs.js';
import { feedCases } from './feeds.js';
import { marketCases } from './markets.js';
import { mcpCases } from './mcp.js';
import { queueCases } from './queue.js';
import { siteCases } from './sites.js';
import { transportCases } from './transport.js';

/** Every recorded-shape case, by area. */
export const REPLAY_CASES: ReplayCase[] = [
  ...queueCases,
  ...siteCases,
  ...briefCases,
  ...marketCases,
  ...feedCases,
  ...transportCases,
  ...mcpCases,
];
