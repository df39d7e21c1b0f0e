export * from './schemas/index.js';
export * from './errors.js';
export * from './client.js';
export * from './table.js';
export * from './validate.js';
export * from './queue.js';
export * from './sites.js';
export * from './briefs.js';
