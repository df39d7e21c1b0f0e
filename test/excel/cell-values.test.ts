// The strict model's rules for cell values (cards): each malformed value Excel would show as a
// bare #VALUE! is refused with its rule named, and well-formed ones pass — at the host's API level.
import { describe, expect, it } from 'vitest';
import { CURRENT_HOST, createExcelRuntime, range } from './excel-runtime.js';
import { officeIcons } from './office-icons.js';

const ICONS = officeIcons();
const metadata = (allow: boolean) => ({
  ...(allow ? { allowCustomDataForDataTypeAny: true } : {}),
  functions: [
    { id: 'CARD', name: 'CARD', parameters: [], result: {}, options: {} },
    { id: 'CARDS', name: 'CARDS', parameters: [], result: { dimensionality: 'matrix' }, options: {} },
    {
      id: 'TAKE',
      name: 'TAKE',
      parameters: [{ name: 'r', type: 'any', dimensionality: 'matrix' }],
      result: {},
      options: {},
    },
  ],
});

type Host = { customFunctionsRuntime: string; excelApi: string };
const H116: Host = { customFunctionsRuntime: '1.4', excelApi: '1.16' };
const NO_CARDS: Host = { customFunctionsRuntime: '1.3', excelApi: '1.16' };

async function shown(value: unknown, host: Host = CURRENT_HOST, allow = true) {
  const rt = createExcelRuntime({ metadata: metadata(allow), host, icons: ICONS });
  rt.CustomFunctions.associate('CARD', () => value);
  return rt.invoke('CARD', []);
}

/** A well-formed card at ExcelApi 1.16 (and so at 1.19). */
const card = (over: Record<string, unknown> = {}) => ({
  type: 'Entity',
  text: 'Dallas · CAUTION · 47.1',
  properties: {
    name: { type: 'String', basicValue: 'Dallas' },
    summary: { type: 'String', basicValue: 'DCPI CAUTION' },
    composite_score: {
      type: 'FormattedNumber',
      basicValue: 47.1,
      numberFormat: '0.0',
      propertyMetadata: {
        attribution: [{ sourceText: 'DCPI', sourceAddress: 'https://dchub.cloud/dcpi', licenseText: 'CC-BY-4.0' }],
      },
    },
    id: { type: 'String', basicValue: 'dallas', propertyMetadata: { excludeFrom: { cardView: true } } },
    risky: { type: 'Boolean', basicValue: false },
    fiber: {
      type: 'Entity',
      text: 'Fiber',
      properties: {
        name: { type: 'String', basicValue: 'Fiber' },
        km: { type: 'FormattedNumber', basicValue: 4.1, numberFormat: '0.0 "km"' },
      },
      layouts: {
        card: { title: { property: 'name' }, sections: [{ layout: 'Table', properties: ['km'] }] },
        compact: { icon: 'Connector' },
      },
    },
  },
  layouts: {
    card: {
      title: { property: 'name' },
      subTitle: { property: 'summary' },
      sections: [{ layout: 'List', properties: ['composite_score', 'risky', 'fiber'], title: 'Scores' }],
    },
    compact: { icon: 'City' },
  },
  provider: { description: 'DC Hub', logoTargetAddress: 'https://dchub.cloud' },
  ...over,
});
const withProps = (props: Record<string, unknown>) => card({ properties: { ...card().properties, ...props } });
const withSection = (section: Record<string, unknown>) =>
  card({ layouts: { card: { title: { property: 'name' }, sections: [section] }, compact: { icon: 'City' } } });

describe('cell values under the strict model', () => {
  it('passes a well-formed card, alone and in a spilled column, at ExcelApi 1.16 and 1.19', async () => {
    for (const host of [H116, CURRENT_HOST]) {
      expect(await shown(card(), host)).toEqual({ value: card() });
      const rt = createExcelRuntime({ metadata: metadata(true), host, icons: ICONS });
      rt.CustomFunctions.associate('CARDS', () => [[card()], [card()]]);
      expect((await rt.invoke('CARDS', [])).defects).toBeUndefined();
    }
  });

  it('reads the icon list from @types/office-js (550 names in 1.0.612)', () => {
    expect(ICONS.length).toBeGreaterThanOrEqual(540);
    expect(ICONS).toEqual(expect.arrayContaining(['Generic', 'City', 'MapPin', 'Power']));
  });

  const defects: Array<[string, unknown, RegExp, Host?]> = [
    ['a value without type', withProps({ x: { basicValue: 1 } }), /missing the required property `type`/],
    ['an unknown type', withProps({ x: { type: 'Number', basicValue: 1 } }), /type "Number" is not a cell value type/],
    ['Root outside referencedValues', withProps({ x: { type: 'Root' } }), /type "Root" is not a cell value type/],
    ['a String without basicValue', withProps({ x: { type: 'String' } }), /String needs basicValue text/],
    ['a Double of NaN', withProps({ x: { type: 'Double', basicValue: NaN } }), /needs a finite basicValue/],
    ['a Double of Infinity', withProps({ x: { type: 'Double', basicValue: Infinity } }), /needs a finite basicValue/],
    ['a Double given as text', withProps({ x: { type: 'Double', basicValue: '4' } }), /needs a finite basicValue/],
    [
      'a FormattedNumber without numberFormat',
      withProps({ x: { type: 'FormattedNumber', basicValue: 4 } }),
      /needs numberFormat/,
    ],
    ['a Boolean of text', withProps({ x: { type: 'Boolean', basicValue: 'yes' } }), /boolean basicValue/],
    ['an Array without elements', withProps({ x: { type: 'Array' } }), /elements is not a non-empty rectangular/],
    [
      'a ragged Array',
      withProps({ x: { type: 'Array', elements: [[{ type: 'String', basicValue: 'a' }], []] } }),
      /rectangular/,
    ],
    [
      'an Array inside an Array',
      withProps({ x: { type: 'Array', elements: [[{ type: 'Array', elements: [[{ type: 'Empty' }]] }]] } }),
      /Array directly inside an Array/,
    ],
    ['a WebImage over http', withProps({ x: { type: 'WebImage', address: 'http://x/y.png' } }), /https address/],
    [
      'a Reference without referencedValues',
      withProps({ x: { type: 'Reference', reference: 0 } }),
      /not an index into the root's referencedValues/,
    ],
    ['an unknown error type', withProps({ x: { type: 'Error', errorType: 'Oops' } }), /errorType "Oops"/],
    [
      'basicType disagreeing with type',
      withProps({ x: { type: 'Double', basicValue: 1, basicType: 'String' } }),
      /basicType "String" disagrees with type Double/,
    ],
    [
      'an entity basicType other than Error',
      card({ basicType: 'String' }),
      /basicType "String" disagrees with type Entity/,
    ],
    [
      'a member no typing declares',
      withProps({ x: { type: 'String', basicValue: 'a', format: '0' } }),
      /String has no member "format"/,
    ],
    [
      'referencedValues below the root',
      withProps({ x: { ...card(), referencedValues: [{ type: 'Root' }] } }),
      /referencedValues below the root/,
    ],
    [
      'propertyMetadata on the root',
      card({ propertyMetadata: { sublabel: 'x' } }),
      /only allowed on a value inside an entity's properties/,
    ],
    ["' in a property name", withProps({ "market's": { type: 'String', basicValue: 'a' } }), /holds '/],
    [
      'a section naming a missing property',
      withSection({ layout: 'List', properties: ['nowhere'] }),
      /names "nowhere", which is not a property/,
    ],
    [
      'a title naming a missing property',
      card({ layouts: { card: { title: { property: 'nowhere' } } } }),
      /title names "nowhere"/,
    ],
    ['a subtitle given as text', card({ layouts: { card: { subTitle: 'DCPI' } } }), /subTitle is not \{property\}/],
    ['an empty section', withSection({ layout: 'List', properties: [] }), /non-empty list of names/],
    ['an unknown section layout', withSection({ layout: 'Grid', properties: ['name'] }), /layout "Grid" is not one of/],
    [
      'TwoColumn below ExcelApi 1.19',
      withSection({ layout: 'TwoColumn', properties: ['name'] }),
      /layout "TwoColumn" is not one of List, Table \(ExcelApi 1.16\)/,
      H116,
    ],
    [
      'an icon Excel does not have',
      card({ layouts: { compact: { icon: 'Datacenter' } } }),
      /icon "Datacenter" is not one of Excel's/,
    ],
    [
      'a provider logo over http',
      card({ provider: { description: 'DC Hub', logoSourceAddress: 'http://x/logo.png' } }),
      /not an https address/,
    ],
    [
      'an unknown excludeFrom key',
      withProps({ x: { type: 'String', basicValue: 'a', propertyMetadata: { excludeFrom: { grid: true } } } }),
      /excludeFrom has no member "grid"/,
    ],
    [
      'an attribution of numbers',
      withProps({ x: { type: 'String', basicValue: 'a', propertyMetadata: { attribution: [{ sourceText: 1 }] } } }),
      /sourceText is not text/,
    ],
    [
      'numberFormat on a Double below ExcelApi 1.19',
      withProps({ x: { type: 'Double', basicValue: 1, numberFormat: '0.0' } }),
      /numberFormat on a Double needs ExcelApi 1.19/,
      H116,
    ],
    [
      'a Double with properties below ExcelApi 1.19',
      { type: 'Double', basicValue: 1, properties: {} },
      /a Double with properties needs ExcelApi 1.19/,
      H116,
    ],
    ['a card on a host without CustomFunctionsRuntime 1.4', card(), /without CustomFunctionsRuntime 1.4/, NO_CARDS],
  ];
  for (const [what, value, defect, host] of defects) {
    it(`refuses ${what} (#VALUE!)`, async () => {
      const r = await shown(value, host);
      expect(r.error).toEqual({ code: '#VALUE!', message: '' });
      expect(r.defects!.join('\n')).toMatch(defect);
    });
  }

  it('refuses a card from a function whose metadata does not allow custom data', async () => {
    const r = await shown(card(), CURRENT_HOST, false);
    expect(r.defects!.join('\n')).toMatch(/allowCustomDataForDataTypeAny/);
  });

  it('takes cards as arguments only where custom data is allowed, each checked', async () => {
    const rt = createExcelRuntime({ metadata: metadata(true), icons: ICONS });
    let seen: unknown;
    rt.CustomFunctions.associate('TAKE', (r: unknown) => ((seen = r), 1));
    expect(await rt.invoke('TAKE', [range([[card()], [card()]])])).toEqual({ value: 1 });
    expect(seen).toEqual([[card()], [card()]]);
    await expect(rt.invoke('TAKE', [range([[card({ layouts: { compact: { icon: 'Nope' } } })]])])).rejects.toThrow(
      /icon "Nope"/,
    );
    const strict = createExcelRuntime({ metadata: metadata(false), icons: ICONS });
    strict.CustomFunctions.associate('TAKE', () => 1);
    await expect(strict.invoke('TAKE', [range([[card()]])])).rejects.toThrow(/allowCustomDataForDataTypeAny/);
  });

  it('answers Office.context.requirements for the host chosen', () => {
    const req = (host: Host) => createExcelRuntime({ metadata: metadata(true), host }).Office.context.requirements;
    expect(req(CURRENT_HOST).isSetSupported('ExcelApi', '1.19')).toBe(true);
    expect(req(CURRENT_HOST).isSetSupported('CustomFunctionsRuntime', '1.4')).toBe(true);
    expect(req(H116).isSetSupported('ExcelApi', '1.19')).toBe(false);
    expect(req(H116).isSetSupported('ExcelApi', '1.9')).toBe(true); // versions compare as numbers: 1.16 ≥ 1.9
    expect(req(NO_CARDS).isSetSupported('CustomFunctionsRuntime', '1.4')).toBe(false);
    expect(req(NO_CARDS).isSetSupported('WordApi', '1.1')).toBe(false);
  });
});
