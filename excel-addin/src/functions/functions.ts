/**
 * The DCHUB custom functions, one module per resource. Each module's JSDoc becomes its part of
 * functions.json, and custom-functions-metadata-plugin appends its CustomFunctions.associate calls
 * (webpack.config.js lists the same files).
 */
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
