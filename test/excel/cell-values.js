// Excel's rules for cell values given as JSON (Excel.CellValue: entity cards, formatted numbers),
// for the strict runtime model (excel-runtime.js). Excel shows a bare #VALUE! for a value that
// breaks one of them, with no exception and no diagnostics; here each broken rule is named. The
// rules are those of shared/reference/excel-data-types.md §7.2 (from the ExcelApi 1.21 typings):
//
// - every value has a `type` Excel knows (`Root` only inside `referencedValues`) and the members
//   that type requires: `basicValue` of the right kind for String, Double (finite), Boolean and
//   FormattedNumber (with `numberFormat`), `elements` (a non-empty rectangle, no Array directly
//   inside) for Array, `address` (https) for WebImage, a valid index for Reference, and so on;
// - `basicType`, when given, agrees with `type`; `basicValue` of an Entity, Array, WebImage or
//   LinkedEntity is read-only text; a member no typing declares is a defect (a strictness choice);
// - `referencedValues` only at the root of a value, `propertyMetadata` only on a value inside an
//   entity's `properties`, no `'` in a property name (office-js #5945);
// - a card layout names only properties the value has; sections are List or Table, TwoColumn only
//   from ExcelApi 1.19 (office-js #5794); the compact icon is one of EntityCompactLayoutIcons;
//   provider and attribution members are text, their addresses https;
// - `numberFormat` on a Double, properties on a basic value and Function values need ExcelApi 1.19
//   (below it a formatted number is a FormattedNumber, ExcelApi 1.16).

const TYPES = new Set([
  'Array',
  'Boolean',
  'Double',
  'Entity',
  'Empty',
  'Error',
  'FormattedNumber',
  'Function',
  'LinkedEntity',
  'Reference',
  'String',
  'NotAvailable',
  'WebImage',
]);
const ERROR_TYPES = new Set([
  'Blocked',
  'Busy',
  'Calc',
  'Connect',
  'Div0',
  'External',
  'Field',
  'GettingData',
  'NotAvailable',
  'Name',
  'Null',
  'Num',
  'Placeholder',
  'Ref',
  'Spill',
  'Value',
]);
/** The `basicType` each type implies (Reference and NotAvailable carry the referenced one). */
const BASIC_TYPE = {
  String: 'String',
  Double: 'Double',
  FormattedNumber: 'Double',
  Boolean: 'Boolean',
  Empty: 'Empty',
  Entity: 'Error',
  Array: 'Error',
  WebImage: 'Error',
  LinkedEntity: 'Error',
  Function: 'Error',
  Error: 'Error',
};
const ANY_BASIC_TYPE = new Set(['Boolean', 'Double', 'Error', 'Empty', 'String']);
const READ_ONLY_BASIC_VALUE = new Set(['Entity', 'Array', 'WebImage', 'LinkedEntity', 'Function']);
const REFERENCEABLE = new Set(['Array', 'Entity', 'Root', 'Double', 'String', 'Boolean']);
const COMMON = ['type', 'basicType', 'basicValue', 'writable', 'writableNote'];
const WITH_PROPERTIES = ['properties', 'layouts', 'provider', 'referencedValues'];
/** Members each type may carry besides COMMON. */
const MEMBERS = {
  String: WITH_PROPERTIES,
  Double: ['numberFormat', ...WITH_PROPERTIES],
  Boolean: WITH_PROPERTIES,
  FormattedNumber: ['numberFormat'],
  Entity: ['text', ...WITH_PROPERTIES],
  Array: ['elements', 'referencedValues'],
  WebImage: ['address', 'altText', 'relatedImagesAddress', 'attribution', 'provider'],
  LinkedEntity: ['id', 'text', 'properties', 'layouts', 'provider'],
  Reference: ['reference'],
  Function: ['functionType', 'namespace', 'id', 'capturesCallingObject'],
  Error: ['errorType', 'errorSubType', 'fieldName', 'functionName'],
  Empty: [],
  NotAvailable: [],
};
const SECTION_KEYS = new Set(['layout', 'properties', 'title', 'collapsible', 'collapsed']);
const CARD_KEYS = new Set(['title', 'subTitle', 'mainImage', 'sections', 'layout']);
const EXCLUDE_KEYS = new Set(['cardView', 'autoComplete', 'calcCompare', 'dotNotation']);
const ATTRIBUTION_KEYS = new Set(['sourceAddress', 'sourceText', 'licenseAddress', 'licenseText']);
const PROVIDER_KEYS = new Set(['description', 'logoSourceAddress', 'logoTargetAddress']);
const MAX_TEXT = 32767;

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const https = (s) => typeof s === 'string' && /^https:\/\/[^\s]+$/.test(s);

/** `1.19` ≥ `1.16` as versions. */
export function versionAtLeast(have, want) {
  const [a, b] = String(have).split('.').map(Number);
  const [c, d] = String(want).split('.').map(Number);
  return a > c || (a === c && (b || 0) >= (d || 0));
}

/**
 * Defects of a cell value given as JSON. `host`: { excelApi: '1.16' | '1.19' | …, icons: Set of
 * EntityCompactLayoutIcons names }. The value is a root unless `opts.nested` (inside properties).
 */
export function cellValueDefects(value, where, host, opts = {}) {
  const out = [];
  const root = { referencedValues: undefined };
  const levels = {
    ...host,
    at116: versionAtLeast(host.excelApi, '1.16'),
    at119: versionAtLeast(host.excelApi, '1.19'),
  };
  check(value, where, { nested: false, root: true, ...opts }, out, levels, root);
  return out;
}

function check(v, where, at, out, host, root) {
  if (!isObject(v))
    return void out.push(`${where}: ${Array.isArray(v) ? 'an array' : JSON.stringify(v)} is not a cell value object`);
  if (!('type' in v)) return void out.push(`${where} is missing the required property \`type\``);
  const t = v.type;
  if (t === 'Root' && at.inReferenced) return;
  if (!TYPES.has(t)) return void out.push(`${where}: type ${JSON.stringify(t)} is not a cell value type`);
  const allowed = new Set([...COMMON, ...MEMBERS[t], ...(at.nested ? ['propertyMetadata'] : [])]);
  for (const k of Object.keys(v)) {
    if (k === 'propertyMetadata' && !at.nested)
      out.push(`${where}: propertyMetadata is only allowed on a value inside an entity's properties`);
    else if (!allowed.has(k)) out.push(`${where}: ${t} has no member ${JSON.stringify(k)}`);
  }
  basics(v, t, where, out);
  if ('writable' in v && typeof v.writable !== 'boolean') out.push(`${where}: writable is not a boolean`);
  if ('writableNote' in v && typeof v.writableNote !== 'string') out.push(`${where}: writableNote is not text`);
  if ('propertyMetadata' in v && at.nested) metadata(v.propertyMetadata, `${where}.propertyMetadata`, out);
  if ('referencedValues' in v) {
    if (!at.root) out.push(`${where}: referencedValues below the root of a value (Excel shows #VALUE!)`);
    else if (!Array.isArray(v.referencedValues)) out.push(`${where}: referencedValues is not an array`);
    else {
      root.referencedValues = v.referencedValues;
      v.referencedValues.forEach((r, i) => {
        if (!isObject(r) || !REFERENCEABLE.has(r.type))
          out.push(`${where}.referencedValues[${i}]: type ${JSON.stringify(r?.type)} cannot be referenced`);
        else
          check(
            r,
            `${where}.referencedValues[${i}]`,
            { nested: false, root: false, inReferenced: true },
            out,
            host,
            root,
          );
      });
    }
  }
  const needs119 = (what) => {
    if (!host.at119) out.push(`${where}: ${what} needs ExcelApi 1.19 (this host has ${host.excelApi})`);
  };
  if (['String', 'Double', 'Boolean'].includes(t) && WITH_PROPERTIES.some((k) => k in v))
    needs119(`a ${t} with properties`);
  if (t === 'Double' && 'numberFormat' in v) {
    if (typeof v.numberFormat !== 'string' || !v.numberFormat) out.push(`${where}: numberFormat is not text`);
    needs119('numberFormat on a Double');
  }
  if (t === 'FormattedNumber' && !host.at116) out.push(`${where}: FormattedNumber needs ExcelApi 1.16`);
  if (t === 'Function') needs119('a Function value');
  if ('properties' in v) properties(v, where, out, host, root);
  if ('layouts' in v) layouts(v, where, out, host);
  if ('provider' in v) provider(v.provider, `${where}.provider`, out);
  if ('text' in v && typeof v.text !== 'string') out.push(`${where}: text is not text`);
  members(v, t, where, out, host, root);
}

function basics(v, t, where, out) {
  if ('basicType' in v) {
    const want = BASIC_TYPE[t];
    if (want ? v.basicType !== want : !ANY_BASIC_TYPE.has(v.basicType))
      out.push(`${where}: basicType ${JSON.stringify(v.basicType)} disagrees with type ${t}`);
  }
  const bv = v.basicValue;
  const has = 'basicValue' in v;
  if (t === 'String' && (typeof bv !== 'string' || bv.length > MAX_TEXT))
    out.push(`${where}: a String needs basicValue text of at most ${MAX_TEXT} characters`);
  if ((t === 'Double' || t === 'FormattedNumber') && (typeof bv !== 'number' || !Number.isFinite(bv)))
    out.push(`${where}: a ${t} needs a finite basicValue`);
  if (t === 'FormattedNumber' && (typeof v.numberFormat !== 'string' || !v.numberFormat))
    out.push(`${where}: a FormattedNumber needs numberFormat`);
  if (t === 'Boolean' && typeof bv !== 'boolean') out.push(`${where}: a Boolean needs a boolean basicValue`);
  if (t === 'Empty' && has && bv !== '') out.push(`${where}: an Empty value's basicValue is ""`);
  if (t === 'NotAvailable' && !['boolean', 'number', 'string'].includes(typeof bv))
    out.push(`${where}: NotAvailable needs a basicValue`);
  if (READ_ONLY_BASIC_VALUE.has(t) && has && typeof bv !== 'string')
    out.push(`${where}: basicValue of ${t} is read-only text ("#VALUE!")`);
}

function members(v, t, where, out, host, root) {
  if (t === 'Array') {
    const e = v.elements;
    if (!Array.isArray(e) || !e.length || !e.every((r) => Array.isArray(r) && r.length === e[0].length && r.length > 0))
      return void out.push(`${where}: elements is not a non-empty rectangular 2-D array`);
    e.forEach((r, i) =>
      r.forEach((c, j) => {
        if (isObject(c) && c.type === 'Array')
          out.push(`${where}.elements[${i}][${j}]: an Array directly inside an Array`);
        else check(c, `${where}.elements[${i}][${j}]`, { nested: false, root: false }, out, host, root);
      }),
    );
  }
  if (t === 'WebImage' && !https(v.address)) out.push(`${where}: a WebImage needs an https address`);
  if (t === 'WebImage' && 'attribution' in v) attributions(v.attribution, `${where}.attribution`, out);
  if (t === 'Reference') {
    const n = v.reference;
    const refs = root.referencedValues;
    if (!Number.isInteger(n) || !refs || n < 0 || n >= refs.length)
      out.push(`${where}: reference ${JSON.stringify(n)} is not an index into the root's referencedValues`);
  }
  if (
    t === 'Function' &&
    (v.functionType !== 'JavaScriptReference' || typeof v.namespace !== 'string' || typeof v.id !== 'string')
  )
    out.push(`${where}: a Function needs functionType "JavaScriptReference", a namespace and an id`);
  if (t === 'LinkedEntity') {
    const id = v.id;
    const bang = (s) => typeof s === 'string' && s.includes('!');
    if (
      !isObject(id) ||
      typeof id.entityId !== 'string' ||
      typeof id.serviceId !== 'number' ||
      typeof id.culture !== 'string' ||
      bang(id.entityId) ||
      bang(id.domainId)
    )
      out.push(`${where}: a LinkedEntity needs id {entityId, serviceId, culture} without "!"`);
  }
  if (t === 'Error' && 'errorType' in v && !ERROR_TYPES.has(v.errorType))
    out.push(`${where}: errorType ${JSON.stringify(v.errorType)} is not one of Excel's`);
}

function properties(v, where, out, host, root) {
  if (!isObject(v.properties)) return void out.push(`${where}: properties is not an object`);
  for (const [k, p] of Object.entries(v.properties)) {
    if (!k) out.push(`${where}: a property without a name`);
    if (k.includes("'"))
      out.push(
        `${where}: property name ${JSON.stringify(k)} holds ' (Excel cannot extract it to the grid, office-js #5945)`,
      );
    check(p, `${where}.${k}`, { nested: true, root: false }, out, host, root);
  }
}

function layouts(v, where, out, host) {
  const l = v.layouts;
  if (!isObject(l)) return void out.push(`${where}: layouts is not an object`);
  const names = new Set(isObject(v.properties) ? Object.keys(v.properties) : []);
  const named = (ref, what) => {
    if (!isObject(ref) || typeof ref.property !== 'string' || Object.keys(ref).length !== 1)
      out.push(`${where}.layouts.card.${what} is not {property}`);
    else if (!names.has(ref.property))
      out.push(`${where}.layouts.card.${what} names ${JSON.stringify(ref.property)}, which is not a property`);
  };
  for (const k of Object.keys(l))
    if (k !== 'card' && k !== 'compact') out.push(`${where}.layouts has no member ${JSON.stringify(k)}`);
  if ('card' in l) {
    const c = l.card;
    if (!isObject(c)) out.push(`${where}.layouts.card is not an object`);
    else {
      for (const k of Object.keys(c))
        if (!CARD_KEYS.has(k)) out.push(`${where}.layouts.card has no member ${JSON.stringify(k)}`);
      if ('layout' in c && c.layout !== 'Entity')
        out.push(`${where}.layouts.card.layout is ${JSON.stringify(c.layout)} (only "Entity")`);
      if ('title' in c && typeof c.title !== 'string') named(c.title, 'title');
      if ('subTitle' in c) named(c.subTitle, 'subTitle');
      if ('mainImage' in c) {
        named(c.mainImage, 'mainImage');
        if (v.properties?.[c.mainImage?.property]?.type !== 'WebImage')
          out.push(`${where}.layouts.card.mainImage does not name a WebImage`);
      }
      if ('sections' in c) sections(c.sections, `${where}.layouts.card.sections`, names, out, host);
    }
  }
  if ('compact' in l) {
    const c = l.compact;
    if (!isObject(c) || Object.keys(c).some((k) => k !== 'icon')) out.push(`${where}.layouts.compact is not {icon}`);
    else if ('icon' in c) {
      if (!host.icons) throw new Error('the runtime model has no list of EntityCompactLayoutIcons (give icons)');
      if (!host.icons.has(c.icon))
        out.push(
          `${where}.layouts.compact.icon ${JSON.stringify(c.icon)} is not one of Excel's EntityCompactLayoutIcons`,
        );
    }
  }
}

function sections(list, where, names, out, host) {
  if (!Array.isArray(list)) return void out.push(`${where} is not an array`);
  list.forEach((s, i) => {
    const at = `${where}[${i}]`;
    if (!isObject(s)) return void out.push(`${at} is not an object`);
    for (const k of Object.keys(s)) if (!SECTION_KEYS.has(k)) out.push(`${at} has no member ${JSON.stringify(k)}`);
    const layouts = host.at119 ? ['List', 'Table', 'TwoColumn'] : ['List', 'Table'];
    if (!layouts.includes(s.layout))
      out.push(
        `${at}: layout ${JSON.stringify(s.layout)} is not one of ${layouts.join(', ')} (ExcelApi ${host.excelApi})`,
      );
    if (!Array.isArray(s.properties) || !s.properties.length)
      out.push(`${at}: properties is not a non-empty list of names`);
    else
      for (const p of s.properties)
        if (!names.has(p)) out.push(`${at} names ${JSON.stringify(p)}, which is not a property`);
    if ('title' in s && typeof s.title !== 'string') out.push(`${at}: title is not text`);
    for (const k of ['collapsible', 'collapsed'])
      if (k in s && typeof s[k] !== 'boolean') out.push(`${at}: ${k} is not a boolean`);
  });
}

function provider(p, where, out) {
  if (!isObject(p)) return void out.push(`${where} is not an object`);
  for (const [k, v] of Object.entries(p)) {
    if (!PROVIDER_KEYS.has(k)) out.push(`${where} has no member ${JSON.stringify(k)}`);
    else if (typeof v !== 'string') out.push(`${where}.${k} is not text`);
    else if (k !== 'description' && !https(v)) out.push(`${where}.${k} is not an https address`);
  }
}

function attributions(list, where, out) {
  if (!Array.isArray(list)) return void out.push(`${where} is not an array`);
  list.forEach((a, i) => {
    if (!isObject(a)) return void out.push(`${where}[${i}] is not an object`);
    for (const [k, v] of Object.entries(a)) {
      if (!ATTRIBUTION_KEYS.has(k)) out.push(`${where}[${i}] has no member ${JSON.stringify(k)}`);
      else if (typeof v !== 'string') out.push(`${where}[${i}].${k} is not text`);
      else if (k.endsWith('Address') && !https(v)) out.push(`${where}[${i}].${k} is not an https address`);
    }
  });
}

function metadata(m, where, out) {
  if (!isObject(m)) return void out.push(`${where} is not an object`);
  for (const [k, v] of Object.entries(m)) {
    if (k === 'sublabel') {
      if (typeof v !== 'string') out.push(`${where}.sublabel is not text`);
    } else if (k === 'attribution') attributions(v, `${where}.attribution`, out);
    else if (k === 'excludeFrom') {
      if (!isObject(v)) out.push(`${where}.excludeFrom is not an object`);
      else
        for (const [e, b] of Object.entries(v)) {
          if (!EXCLUDE_KEYS.has(e)) out.push(`${where}.excludeFrom has no member ${JSON.stringify(e)}`);
          else if (typeof b !== 'boolean') out.push(`${where}.excludeFrom.${e} is not a boolean`);
        }
    } else out.push(`${where} has no member ${JSON.stringify(k)}`);
  }
}
