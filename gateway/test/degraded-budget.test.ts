import { describe, expect, it } from 'vitest';
import { DegradedSpend, DegradedSpentError } from '../src/degraded.js';
import { RecentTokens } from '../src/recent.js';
import type { Authenticated } from '../src/auth.js';

/** The degraded mode's arithmetic and memory, on their own (the process tests run them for real). */
const REST = 'rest-ledger';
const ana = { name: 'ana', share: 40, shareId: 'gw-share:ana' };
const bo = { name: 'bo', shareId: 'gw-share:bo' };

describe('DegradedSpend', () => {
  it('budgets floor(fraction × the allowance left as last seen), the assumed limit before anything was seen', () => {
    const fresh = new DegradedSpend(0.05, 2000);
    expect(fresh.left).toBe(100);
    const seen = new DegradedSpend(0.05, 2000);
    seen.seen(399);
    seen.open();
    expect(seen.budget).toBe(19);
    seen.seen(10); // what Redis says later does not move an open episode's budget
    expect(seen.budget).toBe(19);
  });

  it('refuses past the budget with a 503 error, and gives back what never went out', () => {
    const d = new DegradedSpend(0.01, 2000);
    d.seen(300); // budget 3
    for (let i = 0; i < 3; i++) d.take(REST, bo, 1);
    expect(() => d.take(REST, bo, 1)).toThrow(DegradedSpentError);
    d.give(REST, bo, 1);
    expect(d.left).toBe(1);
    d.take(REST, bo, 1);
    let refused: unknown;
    try {
      d.take(REST, bo, 1);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DegradedSpentError);
    expect((refused as DegradedSpentError).status).toBe(503);
    expect((refused as DegradedSpentError).body).toMatchObject({ error: 'gateway_degraded' });
  });

  it("holds a caller's share to ⌈fraction × its share left⌉ (one at least while any is left)", () => {
    const d = new DegradedSpend(0.05, 2000);
    d.seen(1000, { id: ana.shareId, left: 30 }); // ⌈1.5⌉ = 2
    d.take(REST, ana, 1);
    d.take(REST, ana, 1);
    expect(() => d.take(REST, ana, 1)).toThrow(/ana may make 2 upstream requests through this replica/);
    d.take(REST, bo, 1); // bo has no share: only the team's budget (50) holds him
    const spent = new DegradedSpend(0.05, 2000);
    spent.seen(1000, { id: ana.shareId, left: 0 });
    expect(() => spent.take(REST, ana, 1)).toThrow(DegradedSpentError);
  });

  it('hands what is unrecorded out once, takes back a part whose writing failed, then closes', () => {
    const d = new DegradedSpend(0.05, 2000);
    d.take(REST, ana, 1);
    d.take(REST, ana, 1);
    d.take('mcp-ledger', bo, 1);
    d.countCall('calls:ana');
    const first = d.takeUnrecorded();
    expect(first.ledgers).toEqual(
      new Map([
        [REST, 2],
        ['mcp-ledger', 1],
      ]),
    );
    expect([...first.shares.values()].map((s) => [s.caller.name, s.n])).toEqual([['ana', 2]]);
    expect(first.calls).toEqual(new Map([['calls:ana', 1]]));
    expect(d.hasUnrecorded).toBe(false);
    expect(d.takeUnrecorded().ledgers.size).toBe(0); // never twice
    d.restore({ ledgers: new Map([[REST, 2]]) });
    expect(d.takeUnrecorded().ledgers).toEqual(new Map([[REST, 2]]));
    d.inFlight = 1;
    expect(d.closeIfSettled()).toBe(false); // a call still runs without Redis
    d.inFlight = 0;
    expect(d.closeIfSettled()).toBe(true);
    expect(d.isOpen).toBe(false);
    expect(d.spent).toBe(0);
  });
});

describe('RecentTokens', () => {
  const auth = { caller: bo, states: {}, callsToday: 1 } as Authenticated;

  it('recalls a token verified within ten minutes of the outage, however long the outage lasts', () => {
    const recent = new RecentTokens();
    const lostAt = 1_000_000_000;
    recent.remember('h1', { auth, counterKey: 'c1', verifiedAt: lostAt - 9 * 60_000 });
    recent.remember('h2', { auth, counterKey: 'c2', verifiedAt: lostAt - 11 * 60_000 });
    expect(recent.recall('h1', lostAt)?.counterKey).toBe('c1');
    expect(recent.recall('h2', lostAt)).toBeUndefined();
    expect(recent.recall('h3', lostAt)).toBeUndefined();
    recent.forget('h1'); // Redis said it is gone (revoked)
    expect(recent.recall('h1', lostAt)).toBeUndefined();
  });

  it('is bounded (the least recently verified go first)', () => {
    const recent = new RecentTokens(600_000, 2);
    for (const h of ['a', 'b', 'c']) recent.remember(h, { auth, counterKey: h, verifiedAt: 0 });
    expect(recent.size).toBe(2);
    expect(recent.recall('a', 0)).toBeUndefined();
    expect(recent.recall('c', 0)).toBeDefined();
  });
});
