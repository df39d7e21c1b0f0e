// Excel's parameter help is held to core's schemas (issue 26): every DCHUB argument is either a service parameter,
// whose help is that parameter's description in core's schema (then what Excel adds), or the add-in's own, and the
// JSDoc (hence functions.json) and docs/excel.md say exactly what excel-addin/scripts/param-help.mjs writes.
import { readFileSync } from 'node:fs';
import { QUEUE_PREDICATES } from '@dchub/core';
import { describe, expect, it } from 'vitest';
import { customFunctions, paramHelp, parameterDescriptions } from '../scripts/param-help.mjs';
import { ARGUMENTS } from '../scripts/param-sources.mjs';

const FIX = 'run `node excel-addin/scripts/param-help.mjs` to write it from the schemas';

describe("Excel's parameter help", () => {
  const { problems, files } = paramHelp();

  it('knows where every argument of every DCHUB function comes from', () => {
    expect(problems).toEqual([]);
  });

  it('carries the descriptions of core schemas, in the JSDoc and in docs/excel.md', () => {
    for (const f of files) expect(f.current, `${f.file}: ${FIX}`).toBe(f.expected);
  });

  it('maps the arguments that stand for service parameters to parameters core describes', () => {
    const descriptions = parameterDescriptions();
    const mapped = Object.values(ARGUMENTS).flatMap((args) => Object.values(args).filter((a: any) => a.from));
    expect(mapped.length).toBeGreaterThan(40);
    for (const a of mapped as Array<{ from: string }>) expect(descriptions.get(a.from), a.from).toBeTruthy();
  });

  it("takes QUEUE's and QUEUECARDS' filters in core's order of the predicates (queueFilters reads them so)", () => {
    for (const file of ['queue.ts', 'cards.ts']) {
      const source = readFileSync(new URL(`../src/functions/${file}`, import.meta.url), 'utf8');
      const fn = customFunctions(source.split('\n')).find((f: any) => f.id.startsWith('QUEUE'));
      expect(
        fn.params.slice(0, QUEUE_PREDICATES.length).map((p: any) => p.name),
        file,
      ).toEqual([...QUEUE_PREDICATES]);
    }
  });

  it('reads the @param entries of a function, continuation lines and the invocation left out', () => {
    const lines = [
      '/**',
      ' * Something.',
      ' * @customfunction THING',
      ' * @param lat Latitude',
      ' * in degrees.',
      ' * @param [field] Member.',
      ' * @param invocation Invocation (set by Excel).',
      ' * @returns A value.',
      ' */',
    ];
    const [fn] = customFunctions(lines);
    expect(fn.id).toBe('THING');
    expect(fn.params.map((p: any) => [p.name, p.optional, p.text, p.at, p.end])).toEqual([
      ['lat', false, 'Latitude in degrees.', 3, 5],
      ['field', true, 'Member.', 5, 6],
    ]);
  });
});
