/**
 * The Tools form (pure, no DOM): which control a JSON Schema property gets, and the form's values
 * handed to core's `coerceToolArguments`, which types every host's tool arguments by the tool's
 * input schema (numbers, booleans, choices, unions, lists, records) and names a bad one.
 */
import { coerceToolArguments, type ToolArgSchema } from '@dchub/core';

const typesOf = (s: ToolArgSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
const itemOf = (s: ToolArgSchema): ToolArgSchema | undefined => (Array.isArray(s.items) ? s.items[0] : s.items);

/**
 * The schema with unions (`anyOf`/`oneOf`) folded in, for choosing a control: the types of every
 * member, and when every member is a constant (`horizon`: 30 | 60 | 90) those constants as the choices.
 */
export function resolveArgSchema(schema: ToolArgSchema): ToolArgSchema {
  const members = schema.anyOf ?? schema.oneOf;
  if (!members?.length)
    return schema.const !== undefined && !schema.enum ? { ...schema, enum: [schema.const] } : schema;
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

/**
 * How a tool argument is edited: a number box, a checkbox, a choice, a list, a list of records (JSON or rows) or text.
 */
export function argControl(raw: ToolArgSchema): 'number' | 'boolean' | 'enum' | 'list' | 'records' | 'text' {
  const schema = resolveArgSchema(raw);
  const types = typesOf(schema);
  if (schema.enum?.length) return 'enum';
  if (types.includes('boolean') && types.length === 1) return 'boolean';
  if (types.includes('array')) {
    const item = itemOf(schema);
    return typesOf(resolveArgSchema(item ?? {})).includes('object') || item?.properties ? 'records' : 'list';
  }
  if ((types.includes('number') || types.includes('integer')) && !types.includes('string')) return 'number';
  if (types.includes('boolean') && !types.includes('string')) return 'boolean';
  return 'text';
}

/** The field names a records control's rows fill, in the item schema's order. */
export function recordFields(schema: ToolArgSchema): string[] {
  return Object.keys(resolveArgSchema(itemOf(resolveArgSchema(schema)) ?? {}).properties ?? {});
}

/**
 * A records control's text as core takes it: JSON as typed (one object stands for a list of one),
 * or rows `39,-77; 40.1,-75.2` whose values fill the item's properties in their declared order.
 * Core then types each value by the item schema.
 */
export function recordsValue(text: string, fields: readonly string[]): unknown {
  const t = text.trim();
  if (t.startsWith('[')) return t;
  if (t.startsWith('{')) return `[${t}]`;
  return t
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((row) => {
      const out: Record<string, string> = {};
      row.split(',').forEach((value, i) => {
        const v = value.trim();
        if (v !== '') out[fields[i] ?? `field${i + 1}`] = v;
      });
      return out;
    });
}

/**
 * Tool arguments from the form's values, typed by core (`coerceToolArguments`): blanks and unchecked
 * boxes are left out (the tool's default applies), records rows read as above. A value the schema
 * does not take throws a ValidationError naming the argument, before any call.
 */
export function toolArgs(inputSchema: unknown, values: Record<string, string | boolean>): Record<string, unknown> {
  const properties = (inputSchema as ToolArgSchema | undefined)?.properties ?? {};
  const given: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(values)) {
    const prop = Object.prototype.hasOwnProperty.call(properties, name) ? properties[name] : undefined;
    if (v === false)
      given[name] = undefined; // an unchecked box says nothing, not false
    else if (typeof v === 'string' && prop && argControl(prop) === 'records' && v.trim() !== '')
      given[name] = recordsValue(v, recordFields(prop));
    else given[name] = v;
  }
  return coerceToolArguments(inputSchema, given);
}
