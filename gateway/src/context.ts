import type { Authenticated } from './auth.js';
import type { Gateway } from './gateway.js';

/** What a request carries through the gateway's handlers (Hono's typed variables). */
export interface GatewayEnv {
  Variables: {
    gateway: Gateway;
    /** The caller, once its credential is known (every API route). */
    auth: Authenticated;
    /** How the answer was obtained (hit, miss, derived, stale; error), for the metrics and the log. */
    cacheStatus: string;
    /** Answered without the shared state (Redis unreachable): the answer carries the notice. */
    degraded: boolean;
  };
}
