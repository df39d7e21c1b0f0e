import type { Hono } from 'hono';
import type { SandboxEnv } from '../app.js';
import type { SandboxContext } from '../context.js';

/** MCP server at /mcp (to be filled in). */
export function registerMcp(_app: Hono<SandboxEnv>, _ctx: SandboxContext): void {}
