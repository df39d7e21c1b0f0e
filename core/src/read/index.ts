// The tolerant readers, one per resource (see decode.ts for the contract).
export * from './decode.js';
export * from './tolerant.js';
export * from './queue.js';
export * from './sites.js';
export * from './briefs.js';
export * from './markets.js';
export * from './facilities.js';
export * from './feeds.js';
export * from './energy.js';
