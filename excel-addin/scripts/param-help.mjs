// Excel's parameter help from core's schemas (issue 26). Rewrites the `@param` lines of the DCHUB functions
// (src/functions/*.ts; custom-functions-metadata-plugin makes functions.json of them) for every argument that
// param-sources.mjs maps to a service parameter: that parameter's description in core's schema, then Excel's
// addition. Then the argument tables of docs/excel.md, from the same `@param` lines (the add-in's own arguments too).
// Usage: node excel-addin/scripts/param-help.mjs [--check]   (needs core built; --check writes nothing and exits 1
// on any difference). test/param-help.test.ts runs the check.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENDPOINTS } from '@dchub/core';
import { z } from 'zod';
import { ARGUMENTS } from './param-sources.mjs';

const addin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(addin, '..');
const FUNCTIONS_DIR = path.join(addin, 'src', 'functions');
const DOCS = path.join(root, 'docs', 'excel.md');
/** Comments are held to 120 columns, as the code is (ESLint's max-len). */
const WIDTH = 120;
/** The last argument of a custom function that Excel sets; not in functions.json. */
const INVOCATION = 'invocation';

/** `endpoint.parameter` → its description, as core's schemas document the input (the same as /openapi.json). */
export function parameterDescriptions() {
  const out = new Map();
  for (const [name, endpoint] of Object.entries(ENDPOINTS))
    for (const part of ['params', 'query', 'body']) {
      if (!endpoint[part]) continue;
      const schema = z.toJSONSchema(endpoint[part], { io: 'input', unrepresentable: 'any' });
      for (const [key, prop] of Object.entries(schema.properties ?? {})) out.set(`${name}.${key}`, prop.description);
    }
  return out;
}

/** A description as a sentence: a full stop unless it ends with one. */
const sentence = (text) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** The help of an argument mapped to a service parameter: the schema's description, then Excel's addition. */
const helpOf = (source, description) => [sentence(description), source.excel].filter(Boolean).join(' ');

/** `first` then `rest` prefixed lines, words wrapped to WIDTH columns. */
function wrap(first, rest, text) {
  const lines = [];
  let line = first;
  for (const word of text.split(' ')) {
    const prefix = lines.length ? rest : first;
    if (line.length > prefix.length && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = `${rest}${word}`;
    } else line = line.length > prefix.length ? `${line} ${word}` : `${line}${word}`;
  }
  lines.push(line);
  return lines;
}

const PARAM = /^(\s*)\* @param (\[(\w+)\]|(\w+))(?: (.*))?$/;
const CONTINUED = /^\s*\* (?!@)(.*)$/;

/**
 * The custom functions of one source file: for each, its id, and its `@param` entries with the lines they span
 * (`at`, `end`: indexes into `lines`), whether optional, and their text (continuation lines joined).
 */
export function customFunctions(lines) {
  const functions = [];
  let current = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*\/\*\*/.test(line)) current = { id: undefined, params: [] };
    if (!current) continue;
    const id = /@customfunction (\w+)/.exec(line);
    if (id) current.id = id[1];
    const param = PARAM.exec(line);
    if (param) {
      const entry = { name: param[3] ?? param[4], optional: !!param[3], at: i, end: i + 1, indent: param[1] };
      const words = [param[5] ?? ''];
      while (entry.end < lines.length && CONTINUED.test(lines[entry.end]) && !lines[entry.end].includes('*/'))
        words.push(CONTINUED.exec(lines[entry.end++])[1]);
      entry.text = words.join(' ').trim();
      if (entry.name !== INVOCATION) current.params.push(entry);
      i = entry.end - 1;
    }
    if (line.includes('*/')) {
      if (current.id) functions.push(current);
      current = null;
    }
  }
  return functions;
}

/** The help each mapped argument must carry, checked against the table; problems say what is missing or stale. */
function helpFor(fn, descriptions, problems) {
  const sources = ARGUMENTS[fn.id];
  if (!sources) {
    if (fn.params.length) problems.push(`DCHUB.${fn.id}: not in excel-addin/scripts/param-sources.mjs`);
    return new Map();
  }
  const help = new Map();
  for (const p of fn.params) {
    const source = sources[p.name];
    if (!source) problems.push(`DCHUB.${fn.id}(${p.name}): neither from a service parameter nor the add-in's own`);
    else if (source.own && !p.text) problems.push(`DCHUB.${fn.id}(${p.name}): the add-in's own argument needs help`);
    else if (source.from) {
      const description = descriptions.get(source.from);
      if (description) help.set(p.name, helpOf(source, description));
      else
        problems.push(
          `DCHUB.${fn.id}(${p.name}): ${source.from} ${descriptions.has(source.from) ? 'has no description' : 'is no parameter of core ENDPOINTS'}`,
        );
    }
  }
  for (const name of Object.keys(sources))
    if (!fn.params.some((p) => p.name === name)) problems.push(`DCHUB.${fn.id}: no argument ${name}`);
  return help;
}

/** A source file with the help of its mapped arguments written in, and its functions as they then read. */
function rewriteSource(text, descriptions, problems) {
  const lines = text.split('\n');
  const functions = customFunctions(lines);
  // From the last entry up, so that the indexes of the earlier ones hold.
  const entries = functions
    .flatMap((fn) => {
      const help = helpFor(fn, descriptions, problems);
      return fn.params.filter((p) => help.has(p.name)).map((p) => ({ ...p, help: help.get(p.name) }));
    })
    .sort((a, b) => b.at - a.at);
  for (const p of entries) {
    const label = p.optional ? `[${p.name}]` : p.name;
    lines.splice(p.at, p.end - p.at, ...wrap(`${p.indent}* @param ${label} `, `${p.indent}* `, p.help));
  }
  const out = lines.join('\n');
  return { text: out, functions: customFunctions(out.split('\n')) };
}

const escapeCell = (s) => s.replace(/\|/g, '\\|');
const argumentRow = (p) => `| \`${p.name}\`${p.optional ? ' (optional)' : ''} | ${escapeCell(p.text)} |`;

/** docs/excel.md with each function's argument table written from its `@param` lines. */
function rewriteDocs(text, functions, problems) {
  const lines = text.split('\n');
  for (const fn of functions) {
    if (!fn.params.length) continue;
    const heading = lines.indexOf(`### DCHUB.${fn.id}`);
    const header = lines.findIndex((l, i) => i > heading && (l === '| argument | meaning |' || l.startsWith('### ')));
    if (heading < 0 || header < 0 || lines[header].startsWith('### ')) {
      problems.push(`DCHUB.${fn.id}: no argument table under "### DCHUB.${fn.id}" in docs/excel.md`);
      continue;
    }
    let end = header + 2;
    while (end < lines.length && lines[end].startsWith('|')) end++;
    lines.splice(header + 2, end - header - 2, ...fn.params.map(argumentRow));
  }
  return lines.join('\n');
}

/**
 * Every file the help is written into, as it is and as it should be, and the problems of the mapping (an argument
 * in neither list, a parameter core does not have, an entry for an argument that is gone).
 */
export function paramHelp() {
  const descriptions = parameterDescriptions();
  const problems = [];
  const files = [];
  const functions = [];
  for (const name of readdirSync(FUNCTIONS_DIR)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const file = path.join(FUNCTIONS_DIR, name);
    const current = readFileSync(file, 'utf8');
    const rewritten = rewriteSource(current, descriptions, problems);
    files.push({ file, current, expected: rewritten.text });
    functions.push(...rewritten.functions);
  }
  for (const id of Object.keys(ARGUMENTS))
    if (!functions.some((fn) => fn.id === id)) problems.push(`DCHUB.${id}: in param-sources.mjs, but no such function`);
  const docs = readFileSync(DOCS, 'utf8');
  files.push({ file: DOCS, current: docs, expected: rewriteDocs(docs, functions, problems) });
  return { problems, files: files.map((f) => ({ ...f, file: path.relative(root, f.file) })) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const { problems, files } = paramHelp();
  for (const p of problems) console.error(`✗ ${p}`);
  const changed = files.filter((f) => f.current !== f.expected);
  for (const f of changed) {
    if (check) console.error(`✗ ${f.file}: parameter help differs from core's schemas`);
    else writeFileSync(path.join(root, f.file), f.expected);
  }
  if (!check) for (const f of changed) console.log(`wrote ${f.file}`);
  process.exit(problems.length || (check && changed.length) ? 1 : 0);
}
