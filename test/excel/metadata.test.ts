// functions.json as built: every function id the add-in has shipped stays (workbooks refer to
// them by id), every id has an implementation module, and shared enums appear once.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DCPI_VERDICTS, DEAL_TYPES, FUEL_MIX_ISOS, RANK_SCORING_MODES } from '@dchub/core';
import { describe, expect, it } from 'vitest';
import { customFunctions } from '../../excel-addin/scripts/param-help.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const meta = JSON.parse(readFileSync(path.resolve(here, '../../excel-addin/dist/functions.json'), 'utf8'));
const functionsDir = path.resolve(here, '../../excel-addin/src/functions');

/** The ids of the release before the split into one module per resource. */
const SHIPPED_IDS = [
  'AICAPACITY',
  'BRIEF',
  'BRIEFS',
  'CHAIN',
  'CITATION',
  'COMPARE',
  'DCPI',
  'DEALS',
  'FACILITIES',
  'FUELMIX',
  'MARKET',
  'MARKETS',
  'NEWS',
  'PARCEL',
  'PIPELINE',
  'PRICE',
  'QUEUE',
  'QUOTA',
  'RANK',
  'SITESCORE',
  'STATS',
  'TOOL',
];

/** The card functions (issue 19): a card or, where Excel has no cards, a table. */
const CARD_IDS = ['MARKETCARD', 'MARKETCARDS', 'QUEUECARDS', 'SITECARD'];

describe('functions.json', () => {
  it('keeps every function id, each with its name', () => {
    const ids = meta.functions.map((f: { id: string }) => f.id);
    expect([...ids].sort()).toEqual([...SHIPPED_IDS, ...CARD_IDS].sort());
    for (const f of meta.functions) expect(f.name).toBe(f.id);
  });

  it("gives each argument its JSDoc's help on one line (written from core's schemas by param-help.mjs)", () => {
    const help = new Map<string, string>();
    for (const file of readdirSync(functionsDir).filter((f) => f.endsWith('.ts')))
      for (const fn of customFunctions(readFileSync(path.join(functionsDir, file), 'utf8').split('\n')))
        for (const p of fn.params) help.set(`${fn.id}.${p.name}`, p.text);
    for (const f of meta.functions)
      for (const p of f.parameters) expect(p.description, `${f.id}.${p.name}`).toBe(help.get(`${f.id}.${p.name}`));
  });

  it('lists each custom enum once, and every enum a parameter names exists', () => {
    const enumIds = (meta.enums ?? []).map((e: { id: string }) => e.id);
    expect(new Set(enumIds).size).toBe(enumIds.length);
    const used = meta.functions.flatMap((f: any) => f.parameters.map((p: any) => p.customEnumId).filter(Boolean));
    for (const id of used) expect(enumIds).toContain(id);
  });

  it("offers core's words in the drop-downs (custom enums) of arguments core's schemas read", () => {
    const values = (id: string) =>
      meta.enums.find((e: { id: string }) => e.id === id).values.map((v: { stringValue: string }) => v.stringValue);
    expect(values('DealType')).toEqual([...DEAL_TYPES]);
    expect(values('GridIso')).toEqual([...FUEL_MIX_ISOS]);
    expect(values('RankMode')).toEqual([...RANK_SCORING_MODES]);
    expect(DCPI_VERDICTS).toEqual(expect.arrayContaining(values('DcpiVerdict')));
  });

  it('allows custom data (cards as results and arguments), and the card functions neither stream nor answer a single value', () => {
    expect(meta.allowCustomDataForDataTypeAny).toBe(true);
    for (const id of CARD_IDS) {
      const f = meta.functions.find((x: { id: string }) => x.id === id);
      // Matrix: the fallback table and [[card]] both need it; no streaming: Excel mishandles entities there.
      expect(f.result, id).toEqual({ dimensionality: 'matrix' });
      expect(f.options?.stream, id).toBeUndefined();
    }
    const rank = meta.functions.find((x: { id: string }) => x.id === 'RANK');
    expect(rank.parameters[0]).toMatchObject({ name: 'candidates', type: 'any', dimensionality: 'matrix' });
  });
});
