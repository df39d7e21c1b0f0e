/**
 * Seeded randomness. Every generated value derives from DCHUB_SEED through these, so one seed
 * gives byte-identical data on every start.
 */
import { hash53 } from '@dchub/core';

/** core's 53-bit string hash (cyrb53), seeded: one seed gives the same data everywhere. */
export { hash53 };

/** A uniform number in [0, 1) fixed by the parts named. */
export function unit(...parts: Array<string | number>): number {
  return hash53(parts.join('|')) / 2 ** 53;
}

/** Hex digits fixed by the parts named. */
export function hexId(length: number, ...parts: Array<string | number>): string {
  let out = '';
  let i = 0;
  while (out.length < length)
    out += hash53(`${parts.join('|')}#${i++}`)
      .toString(16)
      .padStart(14, '0');
  return out.slice(0, length);
}

/** A small fast PRNG (sfc32) for sequential draws. */
export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;
  constructor(seed: string) {
    const h = hash53(seed);
    this.#a = h >>> 0;
    this.#b = (h / 4294967296) >>> 0;
    this.#c = hash53(seed, 1) >>> 0;
    this.#d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
  int(min: number, max: number): number {
    return Math.floor(this.range(min, max + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** Picks by weight: `[[item, weight], ...]`. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1][0];
  }
  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const a = [...items];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Log-uniform between min and max: many small values, a few large. */
  logRange(min: number, max: number): number {
    return Math.exp(this.range(Math.log(min), Math.log(max)));
  }
}

export const round = (n: number, dp: number): number => {
  const f = 10 ** dp;
  return Math.round(n * f) / f;
};

/** Great-circle distance in km. */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const dLat = (lat2 - lat1) * r;
  const dLon = (lon2 - lon1) * r;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(dLon / 2) ** 2;
  return 12742 * Math.asin(Math.min(1, Math.sqrt(a)));
}
