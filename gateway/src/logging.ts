import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * The gateway's log: JSON lines (pino), one per request and one per change of Redis's state. What
 * could carry a credential is never logged: no headers, no query strings (a key may come as
 * `?api_key=`), no bodies; the routes are labels (metrics.ts). Redaction stands guard anyway over
 * the headers that carry one, should a later line log a request's headers.
 */
export type GatewayLogger = Logger;

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
];

export function createLogger(level: string, destination?: DestinationStream): GatewayLogger {
  return pino(
    {
      level,
      base: { service: 'dchub-gateway' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
