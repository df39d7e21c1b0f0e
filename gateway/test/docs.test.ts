import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayEnv } from '../src/config.js';

/**
 * docs/gateway.md's configuration table against the gateway's schema (gateway/src/config.ts): every
 * variable the gateway reads is documented, nothing else is, and each documented default is the
 * schema's.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(ROOT, 'docs/gateway.md'), 'utf8');

/** The rows of the table under `### Configuration`: variable → default as written (without backticks). */
function configurationTable(): Map<string, string> {
  const start = doc.indexOf('### Configuration');
  const end = doc.indexOf('\n#', start + 1);
  const rows = new Map<string, string>();
  for (const line of doc.slice(start, end).split('\n')) {
    const cells = /^\| `([A-Z0-9_]+)` \| ([^|]*) \|/.exec(line);
    if (cells) rows.set(cells[1], cells[2].trim().replace(/`/g, ''));
  }
  return rows;
}

/** The schema's default of a variable as the docs write it ('—' when it has none). */
function schemaDefault(name: string): string {
  const field = (GatewayEnv.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>)[
    name
  ];
  if (!field) return '—';
  const r = field.safeParse(undefined);
  if (!r.success || r.data === undefined) return '—';
  const value = r.data;
  if (Array.isArray(value)) return value.join(',');
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

describe('docs/gateway.md: the configuration table', () => {
  const table = configurationTable();

  it('lists exactly the variables the gateway reads', () => {
    const read = [...Object.keys(GatewayEnv.shape), 'DCHUB_UPSTREAM_KEY_FILE', 'DCHUB_UPSTREAM_KEY'].sort();
    expect([...table.keys()].sort()).toEqual(read);
  });

  it("gives each variable the schema's default", () => {
    for (const [name, written] of table) expect(written, name).toBe(schemaDefault(name));
  });
});
