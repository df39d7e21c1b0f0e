import { generateInfrastructure, type Infrastructure } from './data/infrastructure.js';
import { lastChangeDay, marketStats, scoreMarket, type DcpiScore, type MarketStats } from './data/markets.js';
import { METROS } from './data/metros.js';
import { generateQueue, type QueueProject } from './data/queue.js';

/** Everything the sandbox serves, generated once per seed; DCPI is derived per day on demand. */
export class Dataset {
  readonly seed: string;
  readonly infra: Infrastructure;
  readonly queue: QueueProject[];
  readonly stats: Map<string, MarketStats>;
  readonly #dcpiByDay = new Map<number, DcpiScore[]>();
  readonly #lazy = new Map<string, unknown>();

  constructor(seed: string) {
    this.seed = seed;
    this.infra = generateInfrastructure(seed);
    this.queue = generateQueue(seed, this.infra.fiberNodes);
    this.stats = marketStats(seed, this.infra.facilities);
  }

  /**
   * A derived data set generated on first use and kept (deals, news, pipeline, ...). `make`
   * must be a pure function of the seed and this data set, so the same seed gives the same data.
   */
  lazy<T>(name: string, make: () => T): T {
    if (!this.#lazy.has(name)) this.#lazy.set(name, make());
    return this.#lazy.get(name) as T;
  }

  /** DCPI of every market as recomputed on `day` (kept for the last few days asked). */
  dcpi(day: number): DcpiScore[] {
    let scores = this.#dcpiByDay.get(day);
    if (!scores) {
      scores = METROS.map((m) => scoreMarket(this.seed, m, lastChangeDay(this.seed, m.slug, day)));
      this.#dcpiByDay.set(day, scores);
      if (this.#dcpiByDay.size > 8) this.#dcpiByDay.delete(this.#dcpiByDay.keys().next().value!);
    }
    return scores;
  }
}
