/**
 * The headers of a stored answer, for reading it again. Not fetch's Headers: in Node that class is undici's, and
 * its first use loads all of Node's fetch (about 17 MB resident), which an answer read from the cache never needs.
 * Names are case-insensitive, as in Headers; iteration is in name order, as in Headers.
 */
export class StoredHeaders implements Headers {
  readonly #map = new Map<string, string>();

  constructor(init: Record<string, string> = {}) {
    for (const [name, value] of Object.entries(init)) this.append(name, value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const had = this.#map.get(key);
    this.#map.set(key, had === undefined ? String(value) : `${had}, ${value}`);
  }
  delete(name: string): void {
    this.#map.delete(name.toLowerCase());
  }
  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }
  getSetCookie(): string[] {
    const cookie = this.get('set-cookie');
    return cookie === null ? [] : [cookie];
  }
  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }
  set(name: string, value: string): void {
    this.#map.set(name.toLowerCase(), String(value));
  }
  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
  entries(): HeadersIterator<[string, string]> {
    return [...this.#map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))[Symbol.iterator]();
  }
  keys(): HeadersIterator<string> {
    return [...this.entries()].map(([key]) => key)[Symbol.iterator]();
  }
  values(): HeadersIterator<string> {
    return [...this.entries()].map(([, value]) => value)[Symbol.iterator]();
  }
  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }
}
