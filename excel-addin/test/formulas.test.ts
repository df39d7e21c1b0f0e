// The pane's Formulas list: an example for every function the build declares (the card functions
// included), what each answers, and whether this Excel shows cards — asked of its requirement sets.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cardSupport, cardSupportText } from '../src/shared/card-support';
import { EXAMPLES, shape, type FunctionMeta } from '../src/taskpane/formulas';

const here = path.dirname(fileURLToPath(import.meta.url));
const meta = JSON.parse(readFileSync(path.resolve(here, '../dist/functions.json'), 'utf8')) as {
  functions: FunctionMeta[];
};
const g = globalThis as { Office?: unknown };

afterEach(() => delete g.Office);

describe('the Formulas list', () => {
  it('has an example of every function the build declares, calling that function', () => {
    for (const f of meta.functions) expect(EXAMPLES[f.id], f.id).toMatch(new RegExp(`^=DCHUB\\.${f.id}\\(`));
  });

  it('says the card functions answer cards', () => {
    const byId = (id: string) => meta.functions.find((f) => f.id === id)!;
    expect(shape(byId('MARKETCARD'))).toBe('one card');
    expect(shape(byId('SITECARD'))).toBe('one card');
    expect(shape(byId('QUEUECARDS'))).toBe('a column of cards');
    expect(shape(byId('MARKETCARDS'))).toBe('a column of cards');
    expect(shape(byId('QUEUE'))).toBe('spills a table');
  });

  it('tells which the user’s Excel gets, from its requirement sets', () => {
    const host = (sets: Record<string, string>) => {
      g.Office = {
        context: {
          requirements: {
            isSetSupported: (name: string, v: string) =>
              sets[name] !== undefined && Number(sets[name].split('.')[1]) >= Number(v.split('.')[1]),
          },
        },
      };
    };
    host({ CustomFunctionsRuntime: '1.5', ExcelApi: '1.19' });
    expect(cardSupport()).toBe('formatted');
    host({ CustomFunctionsRuntime: '1.4', ExcelApi: '1.16' });
    expect(cardSupport()).toBe('cards');
    expect(cardSupportText('cards')).toMatch(/older way/);
    host({ CustomFunctionsRuntime: '1.3', ExcelApi: '1.16' });
    expect(cardSupport()).toBe('none');
    expect(cardSupportText('none')).toMatch(/answer tables instead/);
    delete g.Office;
    expect(cardSupport()).toBe('none'); // Office not there: tables, never a card Excel cannot show
    g.Office = {
      context: {
        requirements: {
          isSetSupported: () => {
            throw new Error('not ready');
          },
        },
      },
    };
    expect(cardSupport()).toBe('none');
  });
});
