// The docs check (issue 21), one counted check each:
//   links      every relative link and anchor of README.md, CHANGELOG.md and docs/*.md resolves
//   inside     no page points outside the repository: no link that leaves it (`../` past its root, `file:`), and no
//              path a clone lacks (the `shared/` folder of the workspace, an absolute path of one machine)
//   excel      every DCHUB function of functions.json has its section in docs/excel.md naming each argument, and a
//              help link to that section in the pages served with the add-in (dist/docs/excel.html)
//   cli        every command of `dchub --help` is documented in docs/cli.md
//   python     every public member of the Python Client and every chart function is documented in docs/notebooks.md
// Usage: node scripts/docs-check.mjs [report.json]   (needs the builds: core, the Excel add-in, the venv's package)
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { headingIds, isRelative, linkTargets, outsideRefs } from './docs/markdown.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (rel) => readFileSync(path.join(root, rel), 'utf8');
const pages = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Heading ids per Markdown file, read once. */
const idsOf = new Map();
const ids = (rel) => idsOf.get(rel) ?? idsOf.set(rel, new Set(headingIds(read(rel)))).get(rel);

function checkLinks() {
  const problems = [];
  for (const page of pages) {
    if (!existsSync(path.join(root, page))) {
      problems.push(`${page}: missing`);
      continue;
    }
    for (const { href } of linkTargets(read(page))) {
      if (!isRelative(href)) continue;
      const [file, hash] = href.split('#');
      const target = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(file))) : page;
      if (!existsSync(path.join(root, target))) problems.push(`${page}: ${href} — no file ${target}`);
      else if (hash && target.endsWith('.md') && !ids(target).has(hash))
        problems.push(`${page}: ${href} — no heading #${hash} in ${target}`);
    }
  }
  return problems;
}

function checkInside() {
  return pages.filter((p) => existsSync(path.join(root, p))).flatMap((p) => outsideRefs(p, read(p)));
}

/** The text of the section under the heading with this id, up to the next heading of the same or a higher level. */
function section(markdown, id) {
  const lines = markdown.split('\n');
  const at = lines.findIndex((l) => /^#{1,6} /.test(l) && headingIds(l)[0] === id);
  if (at < 0) return undefined;
  const level = /^#+/.exec(lines[at])[0].length;
  const end = lines.findIndex((l, i) => i > at && new RegExp(`^#{1,${level}} `).test(l));
  return lines.slice(at, end < 0 ? undefined : end).join('\n');
}

function checkExcel() {
  const problems = [];
  const metaFile = 'excel-addin/dist/functions.json';
  const htmlFile = 'excel-addin/dist/docs/excel.html';
  if (!existsSync(path.join(root, metaFile)) || !existsSync(path.join(root, htmlFile)))
    return [`${metaFile} or ${htmlFile} missing: build the add-in first`];
  const { functions } = JSON.parse(read(metaFile));
  const doc = read('docs/excel.md');
  const html = read(htmlFile);
  for (const f of functions) {
    const id = `dchub${f.id.toLowerCase()}`;
    const text = section(doc, id);
    if (!text) {
      problems.push(`DCHUB.${f.id}: no "### DCHUB.${f.id}" section in docs/excel.md`);
      continue;
    }
    for (const p of f.parameters ?? [])
      if (!text.includes(`\`${p.name}\``)) problems.push(`DCHUB.${f.id}: argument ${p.name} not named in its section`);
    if (!/\*\*Example:\*\* `=DCHUB\./.test(text)) problems.push(`DCHUB.${f.id}: no example in its section`);
    if (!f.helpUrl || !f.helpUrl.endsWith(`/docs/excel.html#${id}`))
      problems.push(`DCHUB.${f.id}: help link ${f.helpUrl} is not docs/excel.html#${id}`);
    if (!new RegExp(`id="?${id}[" >]`).test(html)) problems.push(`DCHUB.${f.id}: ${htmlFile} has no anchor ${id}`);
  }
  return problems;
}

function checkCli() {
  const help = execFileSync(process.execPath, [path.join(root, 'core/dist/cli/dchub.js'), '--help'], {
    encoding: 'utf8',
  });
  const block = help.slice(help.indexOf('Commands:'), help.indexOf('Flags:'));
  const commands = [...block.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]);
  if (commands.length < 10) return [`read only ${commands.length} commands from dchub --help`];
  const flags = [...help.slice(help.indexOf('Flags:')).matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]);
  const doc = read('docs/cli.md');
  return [
    ...commands.filter((c) => !doc.includes(`\`dchub ${c}`)).map((c) => `dchub ${c}: not in docs/cli.md`),
    ...flags.filter((f) => !doc.includes(`\`${f}`)).map((f) => `${f}: not in docs/cli.md`),
  ];
}

function checkPython() {
  const python = path.join(root, '.venv/bin/python');
  if (!existsSync(python)) return ['.venv/bin/python missing: run scripts/setup.sh'];
  const listed = execFileSync(
    python,
    [
      '-c',
      'import inspect, json, dchub as d\nfrom dchub import charts\nprint(json.dumps({"client": [n for n, _ in inspect.getmembers(d.Client) if not n.startswith("_")], "charts": charts.__all__}))',
    ],
    { encoding: 'utf8', env: { ...process.env, PYTHONPATH: path.join(root, 'python') } },
  );
  const { client, charts } = JSON.parse(listed);
  const doc = read('docs/notebooks.md');
  const named = (n) => new RegExp(`[\`.]${n}(?:\\(|\`)`).test(doc);
  return [
    ...client.filter((n) => !named(n)).map((n) => `Client.${n}: not in docs/notebooks.md`),
    ...charts.filter((n) => !named(n)).map((n) => `charts.${n}: not in docs/notebooks.md`),
  ];
}

const checks = { links: checkLinks, inside: checkInside, excel: checkExcel, cli: checkCli, python: checkPython };
let passed = 0;
let failed = 0;
for (const [name, run] of Object.entries(checks)) {
  let problems;
  try {
    problems = run();
  } catch (err) {
    problems = [`could not run: ${err instanceof Error ? err.message : String(err)}`];
  }
  if (problems.length) {
    failed++;
    console.log(`✗ docs ${name}: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
    for (const p of problems) console.log(`    ${p}`);
  } else {
    passed++;
    console.log(`✓ docs ${name}`);
  }
}
const report = process.argv[2];
if (report)
  writeFileSync(report, JSON.stringify({ numPassedTests: passed, numFailedTests: failed, numPendingTests: 0 }) + '\n');
process.exit(failed ? 1 : 0);
