/**
 * The project's version (the root package.json's), stamped here by `node scripts/version.mjs --write`: what
 * `dchub --version` prints, what the engine answers, and the MCP client's clientInfo.
 */
export const VERSION = '0.1.0';
