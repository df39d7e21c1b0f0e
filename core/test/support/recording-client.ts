import type { RunningSandbox } from '../../../sandbox/src/server.js';
import { DchubClient } from '../../src/client.js';

type Opts = NonNullable<ConstructorParameters<typeof DchubClient>[0]>;

export interface RecordingOptions extends Opts {
  /** Answers 502 instead for the URLs it picks (path and query). */
  fail?: (url: string) => boolean;
  /** Changes a 200 JSON answer on its way in (to model a service variant). */
  rewrite?: (url: string, body: any) => any;
}

/** A client of the sandbox that records each request it sends (path and query), on the sandbox clock. */
export function recordingClient(sb: RunningSandbox, o: RecordingOptions = {}): { c: DchubClient; sent: string[] } {
  const sent: string[] = [];
  const { fail, rewrite, ...rest } = o;
  const c = new DchubClient({
    baseUrl: sb.url,
    retries: 0,
    now: () => sb.ctx.clock.nowMs(),
    fetch: async (input, init) => {
      const url = String(input instanceof Request ? input.url : input).replace(sb.url, '');
      sent.push(url);
      if (fail?.(url)) return new Response('{"error":"boom"}', { status: 502 });
      const res = await fetch(input, init);
      if (!rewrite || res.status !== 200) return res;
      return new Response(JSON.stringify(rewrite(url, await res.json())), { status: 200, headers: res.headers });
    },
    ...rest,
  });
  return { c, sent };
}
