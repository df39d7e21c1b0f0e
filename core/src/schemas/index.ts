export * from './params.js';
export * from './envelope.js';
export * from './queue.js';
export * from './sites.js';
export * from './briefs.js';
