/**
 * The DCHUB custom functions, one module per resource. Each module's JSDoc becomes its part of
 * functions.json, and custom-functions-metadata-plugin appends its CustomFunctions.associate calls
 * (webpack.config.js lists the same files). The help of an argument that is a service parameter is its
 * description in core's schema, written into the JSDoc by scripts/param-help.mjs (see scripts/param-sources.mjs).
 * They are thin: the engine they run with loads as a chunk of its own, requested here at once so that it arrives
 * while Excel registers the functions.
 */
import { loadEngine } from './load';

loadEngine().catch(() => undefined); // a formula asks again and reports the failure
export * from './sites';
export * from './queue';
export * from './ranking';
export * from './briefs';
export * from './markets';
export * from './facilities';
export * from './feeds';
export * from './parcel';
export * from './tools';
export * from './account';
export * from './cards';
