/**
 * The sandbox's clock. It starts at DCHUB_SANDBOX_NOW (or the real time) and runs forward in
 * real time; test controls may move it. Data that changes over time (daily DCPI recompute,
 * queue snapshots) is a pure function of this clock's day.
 */
export class SandboxClock {
  #start: number;
  #realStart: number;
  #offsetMs = 0;

  constructor(startIso?: string) {
    const start = startIso ? Date.parse(startIso) : Date.now();
    if (Number.isNaN(start)) throw new Error(`DCHUB_SANDBOX_NOW is not an ISO 8601 time: ${startIso}`);
    this.#start = start;
    this.#realStart = Date.now();
  }

  nowMs(): number {
    return this.#start + (Date.now() - this.#realStart) + this.#offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  advance(seconds: number): void {
    this.#offsetMs += seconds * 1000;
  }

  set(iso: string): void {
    const t = Date.parse(iso);
    if (Number.isNaN(t)) throw new Error(`not an ISO 8601 time: ${iso}`);
    this.#offsetMs += t - this.nowMs();
  }
}

export const DAY_MS = 86_400_000;

/** Whole UTC days since the epoch. */
export const dayNumber = (ms: number): number => Math.floor(ms / DAY_MS);
export const dayIso = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
