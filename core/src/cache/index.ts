export * from './store.js';
export * from './ledger.js';
export * from './lifetimes.js';
export * from './responses.js';
export * from './keys.js';
export * from './relayed.js';
export * from './gateway.js';
export * from './quota-line.js';
