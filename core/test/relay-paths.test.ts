import { describe, expect, it } from 'vitest';
import { isRelayedPath } from '../src/engine/relay.js';

/** What the Jupyter relay passes on: only the API, never a path that could climb out of it. */
describe('isRelayedPath', () => {
  it.each([
    'api/v1/interconnection-queue/refined',
    'api/site-score',
    'api/v1/market-brief/all.csv',
    'api/v1/market-brief/northern-virginia',
    'api/v1/market-brief/caf%C3%A9',
    'mcp',
    'openapi.json',
  ])('relays %j', (path) => {
    expect(isRelayedPath(path)).toBe(true);
  });

  it.each([
    '',
    'api',
    'api/',
    '_sandbox/clock',
    'mcp/extra',
    'openapi.yaml',
    'api/../_sandbox/clock',
    'api/%2e%2e/_sandbox/clock',
    'api/v1/./x',
    'api//v1',
    'api/v1%2F..%2F..%2Fetc',
    'api/v1/x%3Fa=b',
    'api/v1/x%23frag',
    'api/v1\\..\\x',
    'http://evil.example/api/x',
    '/api/v1/x',
  ])('refuses %j', (path) => {
    expect(isRelayedPath(path)).toBe(false);
  });
});
