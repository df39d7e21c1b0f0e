import { decodeJson, type Reader } from '../../src/index.js';

/** A reader's decoding of `body` as a 200 JSON answer of `/x` (with `params` as its query, when given). */
export const decode = <T>(reader: Reader<T>, body: unknown, params?: Record<string, string>) =>
  decodeJson(
    { status: 200, headers: new Headers({ 'content-type': 'application/json' }), text: JSON.stringify(body) },
    reader,
    {
      path: '/x',
      params: params ? new URLSearchParams(params) : undefined,
      warnings: [],
    },
  );
