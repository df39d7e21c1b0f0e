import type { SandboxContext } from '../context.js';
import type { RouteRegistry } from '../registry.js';

/** Routes of this resource (to be filled in). */
export function register(_r: RouteRegistry, _ctx: SandboxContext): void {}
