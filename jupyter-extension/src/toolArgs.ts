/**
 * MCP tool arguments from the Tools form (pure, no DOM): which control a JSON Schema property
 * gets, unions folded in, and typed values from what was entered.
 */

/** The part of a JSON Schema property the MCP tool form uses. */
export interface ArgSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: ArgSchema[];
  oneOf?: ArgSchema[];
  description?: string;
  items?: ArgSchema;
  properties?: Record<string, ArgSchema>;
  default?: unknown;
}

const typesOf = (s: ArgSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/**
 * The schema with unions (`anyOf`/`oneOf`) folded in: the types of every member, and when every
 * member is a constant (`horizon`: 30 | 60 | 90) those constants as the choices, typed.
 */
export function resolveArgSchema(schema: ArgSchema): ArgSchema {
  const members = schema.anyOf ?? schema.oneOf;
  if (!members?.length) return schema.const !== undefined && !schema.enum ? { ...schema, enum: [schema.const] } : schema;
  const resolved = members.map(resolveArgSchema);
  const types = [...new Set([...typesOf(schema), ...resolved.flatMap(typesOf)])];
  const allChoices = resolved.every((m) => m.enum?.length);
  return {
    ...schema,
    type: types,
    enum: allChoices ? resolved.flatMap((m) => m.enum ?? []) : schema.enum,
    items: schema.items ?? resolved.find((m) => m.items)?.items
  };
}

/** How a tool argument is edited: a number box, a checkbox, a choice, a list, a list of records (JSON or shorthand) or text. */
export function argControl(raw: ArgSchema): 'number' | 'boolean' | 'enum' | 'list' | 'records' | 'text' {
  const schema = resolveArgSchema(raw);
  const types = typesOf(schema);
  if (schema.enum?.length) return 'enum';
  if (types.includes('boolean') && types.length === 1) return 'boolean';
  if (types.includes('array')) return typesOf(resolveArgSchema(schema.items ?? {})).includes('object') || schema.items?.properties ? 'records' : 'list';
  if ((types.includes('number') || types.includes('integer')) && !types.includes('string')) return 'number';
  if (types.includes('boolean') && !types.includes('string')) return 'boolean';
  return 'text';
}

/** A typed value from text for a schema that allows numbers (text that is no number stays text). */
function typedText(schema: ArgSchema, v: string): unknown {
  const types = typesOf(resolveArgSchema(schema));
  const n = Number(v);
  if ((types.includes('number') || types.includes('integer')) && v.trim() !== '' && Number.isFinite(n)) return n;
  if (types.includes('boolean') && (v === 'true' || v === 'false')) return v === 'true';
  return v;
}

/**
 * Records typed in a form: JSON (`[{"lat": 39, "lon": -77}]`) or the shorthand `39,-77; 40.1,-75.2`,
 * whose values fill the item's properties in their declared order (numbers where the schema says so).
 */
export function parseRecords(text: string, items: ArgSchema | undefined): unknown {
  const t = text.trim();
  if (t.startsWith('[') || t.startsWith('{')) {
    try {
      const parsed = JSON.parse(t) as unknown;
      return Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      return t; // the tool's validation names the argument
    }
  }
  const props = Object.entries(items?.properties ?? {});
  return t
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((rec) => {
      const out: Record<string, unknown> = {};
      rec.split(',').forEach((value, i) => {
        const [name, schema] = props[i] ?? [`field${i + 1}`, {}];
        const v = value.trim();
        if (v !== '') out[name] = typedText(schema, v);
      });
      return out;
    });
}

/**
 * Tool arguments from form values: blanks are left out, numbers, choices and lists converted to
 * the schema's types (unions included), unchecked boxes left out (the tool's default applies).
 * Text that is not a number stays text, so the server's validation can name the bad argument.
 */
export function toolArgs(properties: Record<string, ArgSchema>, values: Record<string, string | boolean>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(properties)) {
    const schema = resolveArgSchema(raw);
    const v = values[name];
    if (v === undefined || v === '' || v === false) continue;
    const kind = argControl(schema);
    if (kind === 'boolean') out[name] = v === true || v === 'true';
    else if (typeof v !== 'string') continue;
    else if (kind === 'number') out[name] = Number.isFinite(Number(v)) ? Number(v) : v;
    else if (kind === 'records') out[name] = parseRecords(v, resolveArgSchema(schema.items ?? {}));
    else if (kind === 'list') {
      const items = v.split(',').map((s) => s.trim()).filter(Boolean);
      out[name] = items.map((s) => typedText(schema.items ?? {}, s));
    } else if (kind === 'enum') {
      const match = schema.enum?.find((e) => String(e) === v);
      out[name] = match ?? v;
    } else out[name] = typedText(schema, v);
  }
  return out;
}
