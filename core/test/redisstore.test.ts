import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { startRedis, type TestRedis } from '../../gateway/test/support/redis.js';
import { cacheKey, QuotaLedger } from '../src/index.js';
import { CLAIM_PREFIX, RedisStore, type RedisCommands } from '../src/node.js';

/**
 * core's RedisStore against a real redis-server (Debian's, started per file with persistence off):
 * several stores on their own connections stand in for replicas of a team gateway.
 */

type Client = ReturnType<typeof createClient>;

let redis: TestRedis;
let answersRedis: TestRedis;
const clients: Client[] = [];

/** A new connection to `server` (each store gets its own, as each replica has its own). */
async function connect(server: TestRedis = redis): Promise<Client> {
  const c = createClient({ url: server.url });
  c.on('error', () => undefined); // a closed or killed connection is part of some tests
  await c.connect();
  clients.push(c);
  return c;
}

const commands = (c: Client) => c as unknown as RedisCommands;
let nsCounter = 0;
/** A namespace of its own per test, so tests never see each other's keys. */
const freshNamespace = () => `t${++nsCounter}:`;

beforeAll(async () => {
  [redis, answersRedis] = await Promise.all([startRedis(), startRedis()]);
});

afterAll(async () => {
  await Promise.allSettled(clients.filter((c) => c.isOpen).map((c) => c.close()));
  await Promise.allSettled([redis?.close(), answersRedis?.close()]);
});

describe('RedisStore: update is atomic across stores', () => {
  it('200 concurrent increments from four stores on four connections lose nothing', async () => {
    const namespace = freshNamespace();
    const stores = await Promise.all(
      Array.from({ length: 4 }, async () => new RedisStore(commands(await connect()), { namespace })),
    );
    const increment = (s: RedisStore) => s.update('dchub:counter', (v) => String(Number(v ?? '0') + 1));
    await Promise.all(Array.from({ length: 200 }, (_, i) => increment(stores[i % stores.length])));
    expect(await stores[0].get('dchub:counter')).toBe('200');
  });

  it('runs its script by digest, and sends it whole again after Redis forgot it (SCRIPT FLUSH)', async () => {
    const c = await connect();
    const store = new RedisStore(commands(c), { namespace: freshNamespace() });
    const bump = (v: string | undefined) => String(Number(v ?? 0) + 1);
    await store.update('dchub:quota:flush', bump);
    await c.scriptFlush();
    await store.update('dchub:quota:flush', bump);
    expect(await store.get('dchub:quota:flush')).toBe('2');
    expect(await c.info('commandstats')).toMatch(/cmdstat_evalsha:calls=[1-9]/);
  });

  it('a change that returns undefined writes nothing', async () => {
    const store = new RedisStore(commands(await connect()), { namespace: freshNamespace() });
    await store.set('dchub:kept', 'a');
    await store.update('dchub:kept', () => undefined);
    expect(await store.get('dchub:kept')).toBe('a');
  });
});

describe('RedisStore: claims', () => {
  it('exactly one of several concurrent claimants gets the claim', async () => {
    const namespace = freshNamespace();
    const stores = await Promise.all(
      Array.from({ length: 5 }, async () => new RedisStore(commands(await connect()), { namespace })),
    );
    const settled: Array<(() => Promise<void>) | 'waited'> = [];
    const pending = stores.map((s) => s.claim('q', { waitMs: 20_000 }).then((r) => (settled.push(r), r)));
    await new Promise((r) => setTimeout(r, 300));
    // One holder; the others still wait for it.
    expect(settled).toHaveLength(1);
    expect(typeof settled[0]).toBe('function');
    await (settled[0] as () => Promise<void>)();
    const results = await Promise.all(pending);
    expect(results.filter((r) => typeof r === 'function')).toHaveLength(1);
    expect(results.filter((r) => r === 'waited')).toHaveLength(4);
  });

  it("a waiter gets 'waited' once the holder releases, not before", async () => {
    const namespace = freshNamespace();
    const holder = new RedisStore(commands(await connect()), { namespace });
    const waiter = new RedisStore(commands(await connect()), { namespace, pollMs: 10 });
    const release = await holder.claim('q', { waitMs: 1_000 });
    expect(typeof release).toBe('function');
    let settled = false;
    const waiting = waiter.claim('q', { waitMs: 20_000 }).then((r) => ((settled = true), r));
    await new Promise((r) => setTimeout(r, 200));
    expect(settled).toBe(false);
    await (release as () => Promise<void>)();
    expect(await waiting).toBe('waited');
    // Released: the next claimant gets it at once.
    const next = await waiter.claim('q', { waitMs: 1_000 });
    expect(typeof next).toBe('function');
    await (next as () => Promise<void>)();
  });

  it('a held claim is renewed past its TTL; a dead holder lapses after claimTtlMs', async () => {
    const namespace = freshNamespace();
    const claimTtlMs = 300;
    const holderClient = await connect();
    const observer = await connect();
    const holder = new RedisStore(commands(holderClient), { namespace, claimTtlMs });
    const waiter = new RedisStore(commands(await connect()), { namespace, claimTtlMs, pollMs: 10 });
    const claimKey = `${namespace}${CLAIM_PREFIX}q`;
    expect(typeof (await holder.claim('q', { waitMs: 1_000 }))).toBe('function');
    // Alive: renewed every third of its TTL, so a waiter bounded at 3 TTLs gives up while it is still held.
    expect(await waiter.claim('q', { waitMs: 3 * claimTtlMs })).toBe('waited');
    expect(await observer.pTTL(claimKey)).toBeGreaterThan(0);
    // The holder dies (its connection gone: no more renewals): the claim lapses and a waiter moves on.
    holderClient.destroy();
    expect(await waiter.claim('q', { waitMs: 30_000 })).toBe('waited');
    expect(await observer.exists(claimKey)).toBe(0);
    const taken = await waiter.claim('q', { waitMs: 1_000 });
    expect(typeof taken).toBe('function');
    await (taken as () => Promise<void>)();
  });

  it('a waiter polling many times leaves no abort listener on its signal', async () => {
    const namespace = freshNamespace();
    const holder = new RedisStore(commands(await connect()), { namespace });
    const waiter = new RedisStore(commands(await connect()), { namespace, pollMs: 5 });
    const release = (await holder.claim('q', { waitMs: 100 })) as () => Promise<void>;
    const signal = new AbortController().signal;
    // About 40 polls: each one's listener must go with it (they would pile up on a long wait).
    expect(await waiter.claim('q', { waitMs: 200, signal })).toBe('waited');
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    await release();
  });

  it('only the holder releases its claim (a lapsed holder cannot drop the next one)', async () => {
    const namespace = freshNamespace();
    const a = new RedisStore(commands(await connect()), { namespace, claimTtlMs: 100 });
    const b = new RedisStore(commands(await connect()), { namespace, claimTtlMs: 5_000 });
    const observer = await connect();
    const releaseA = (await a.claim('q', { waitMs: 100 })) as () => Promise<void>;
    // A stalls past its TTL without renewing (simulated by deleting its claim), B takes the claim.
    await observer.del(`${namespace}${CLAIM_PREFIX}q`);
    const releaseB = await b.claim('q', { waitMs: 100 });
    expect(typeof releaseB).toBe('function');
    await releaseA();
    expect(await observer.exists(`${namespace}${CLAIM_PREFIX}q`)).toBe(1);
    await (releaseB as () => Promise<void>)();
    expect(await observer.exists(`${namespace}${CLAIM_PREFIX}q`)).toBe(0);
  });
});

describe('RedisStore: keys, namespaces and lifetimes', () => {
  it('lists keys whose prefix holds glob characters literally', async () => {
    const store = new RedisStore(commands(await connect()), { namespace: freshNamespace() });
    const wanted = ['dchub:c:GET /api?q=[ab]*?1', 'dchub:c:GET /api?q=[ab]*?2'];
    // Each of these would match the prefix read as a glob (`[ab]` = a or b, `*` anything, `?` one character).
    const decoys = ['dchub:c:GET /api?q=a*?1', 'dchub:c:GET /api?q=[ab]xx1', 'dchub:c:GET /apiXq=[ab]*?1'];
    for (const k of [...wanted, ...decoys]) await store.set(k, 'v');
    expect((await store.keys('dchub:c:GET /api?q=[ab]*?')).sort()).toEqual(wanted);
  });

  it('stores in two namespaces of one server never see each other', async () => {
    const client = commands(await connect());
    const a = new RedisStore(client, { namespace: freshNamespace() });
    const b = new RedisStore(client, { namespace: freshNamespace() });
    await a.set('dchub:quota:x', 'of a');
    await b.set('dchub:quota:x', 'of b');
    await a.set('dchub:quota:only-a', '1');
    expect(await a.get('dchub:quota:x')).toBe('of a');
    expect(await b.get('dchub:quota:x')).toBe('of b');
    expect(await b.get('dchub:quota:only-a')).toBeUndefined();
    expect((await b.keys('dchub:quota:')).sort()).toEqual(['dchub:quota:x']);
  });

  it('cached answers expire after the retention; the ledger and derive indexes do not', async () => {
    const namespace = freshNamespace();
    const client = await connect();
    const store = new RedisStore(commands(client), { namespace, answerRetentionMs: 60_000 });
    const answer = cacheKey('caller', 'https://dchub.cloud', 'GET', '/api/v1/markets?limit=5');
    const index = cacheKey('caller', 'https://dchub.cloud', 'derive-index', '/api/v1/queue');
    await store.set(answer, '{}');
    await store.update(`${answer}-updated`, () => '{}');
    await store.set(index, '[]');
    await store.update('dchub:quota:caller', () => '{"used":1}');
    for (const k of [answer, `${answer}-updated`]) {
      const ttl = await client.pTTL(namespace + k);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    expect(await client.pTTL(namespace + index)).toBe(-1);
    expect(await client.pTTL(`${namespace}dchub:quota:caller`)).toBe(-1);
  });

  it('keeps answers on the separate instance and everything else on the main one', async () => {
    const namespace = freshNamespace();
    const main = await connect(redis);
    const answers = await connect(answersRedis);
    const store = new RedisStore(commands(main), { namespace, answers: commands(answers) });
    const answer = cacheKey('caller', 'https://dchub.cloud', 'GET', '/api/v1/news');
    const index = cacheKey('caller', 'https://dchub.cloud', 'derive-index', '/api/v1/queue');
    await store.set(answer, 'answer');
    await store.set(index, 'index');
    await store.update('dchub:quota:caller', () => 'ledger');
    expect(await answers.get(namespace + answer)).toBe('answer');
    expect(await main.get(namespace + answer)).toBeNull();
    expect(await main.get(namespace + index)).toBe('index');
    expect(await main.get(`${namespace}dchub:quota:caller`)).toBe('ledger');
    expect(await answers.exists(`${namespace}dchub:quota:caller`)).toBe(0);
    // Listing reads both instances; reading goes to the right one.
    expect((await store.keys('dchub:c:')).sort()).toEqual([answer, index].sort());
    expect(await store.get(answer)).toBe('answer');
    // Claims are bookkeeping that must stay: on the main instance.
    const release = (await store.claim(answer, { waitMs: 100 })) as () => Promise<void>;
    expect(await main.exists(`${namespace}${CLAIM_PREFIX}${answer}`)).toBe(1);
    expect(await answers.exists(`${namespace}${CLAIM_PREFIX}${answer}`)).toBe(0);
    await release();
  });
});

describe("core's QuotaLedger over RedisStore", () => {
  it('two replicas never reserve past a known limit under concurrency', async () => {
    const namespace = freshNamespace();
    const ledgers = await Promise.all(
      [0, 1].map(
        async () =>
          new QuotaLedger(new RedisStore(commands(await connect()), { namespace }), 'team', {
            tier: 'free',
            confirmed: true,
          }),
      ),
    );
    const limit = (await ledgers[0].snapshot()).limit;
    expect(limit).toBe(10);
    const granted = await Promise.all(Array.from({ length: 40 }, (_, i) => ledgers[i % 2].reserve()));
    expect(granted.filter(Boolean)).toHaveLength(limit);
    expect((await ledgers[1].snapshot()).used).toBe(limit);
    // Given back on one replica, usable on the other.
    await ledgers[0].release(1);
    expect(await ledgers[1].reserve()).toBe(true);
    expect(await ledgers[0].reserve()).toBe(false);
  });
});
