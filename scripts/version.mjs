// One version for the whole project: the root package.json's "version". Everything else that carries it is a stamp
// of it, written by this script and checked by it (and by test/version.test.ts):
//
//   node scripts/version.mjs            check: every stamp agrees with the root (exit 1 and a list otherwise)
//   node scripts/version.mjs --write    stamp the root's version everywhere
//   node scripts/version.mjs 0.2.0      set the root's version, then stamp it everywhere
//
// The stamps: each workspace's package.json (the dchub-jupyterlab wheel's version comes from jupyter-extension's,
// through hatch-nodejs-version) and their pins of one another, package-lock.json, core/src/version.ts (the `dchub`
// CLI, the engine and the MCP client's clientInfo), the `dchub` Python package's version (python/pyproject.toml)
// and dchub-jupyterlab's pin of it, and the Excel add-in's manifests (XML: four parts, x.y.z.0).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const WORKSPACES = ['core', 'sandbox', 'excel-addin', 'jupyter-extension', 'test'];
/** Plain x.y.z: the unified manifest's "version" and Office's four-part <Version> take nothing else. */
const PLAIN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

const read = (file) => readFileSync(root + file, 'utf8');

/** The project's version: the root package.json's "version". */
export const rootVersion = () => JSON.parse(read('package.json')).version;

/** A top-level `"version": "…"` line (two-space indent), read and replaced without reformatting the file. */
const topLevelVersion = {
  get: (text) => /^ {2}"version": "([^"]*)"/m.exec(text)?.[1],
  set: (text, v) => text.replace(/^( {2}"version": ")[^"]*"/m, `$1${v}"`),
};
/** The pins of one workspace on another (`"@dchub/core": "0.1.0"`), every one of them. */
const pins = {
  get: (text) => {
    const found = [...text.matchAll(/"@dchub\/(?:core|sandbox)": "([^"]*)"/g)].map((m) => m[1]);
    return found.find((v) => v !== found[0]) ?? found[0];
  },
  set: (text, v) => text.replace(/("@dchub\/(?:core|sandbox)": ")[^"]*"/g, `$1${v}"`),
};

/** Every place the version is stamped: a file, what is read there, how it is read and written. */
export const STAMPS = [
  ...WORKSPACES.map((ws) => ({ file: `${ws}/package.json`, what: 'version', ...topLevelVersion })),
  ...['sandbox', 'excel-addin', 'jupyter-extension', 'test'].map((ws) => ({
    file: `${ws}/package.json`,
    what: '@dchub/* pins',
    ...pins,
  })),
  {
    file: 'package-lock.json',
    what: 'the root and every workspace',
    get: (text) => {
      const lock = JSON.parse(text);
      const found = [lock.version, lock.packages[''].version, ...WORKSPACES.map((ws) => lock.packages[ws]?.version)];
      return found.find((v) => v !== found[0]) ?? found[0];
    },
    set: (text, v) => {
      const lock = JSON.parse(text);
      lock.version = v;
      for (const key of ['', ...WORKSPACES]) {
        const entry = lock.packages[key];
        entry.version = v;
        for (const dep of Object.keys(entry.dependencies ?? {}))
          if (/^@dchub\/(core|sandbox)$/.test(dep)) entry.dependencies[dep] = v;
      }
      return `${JSON.stringify(lock, null, 2)}\n`;
    },
  },
  {
    file: 'core/src/version.ts',
    what: 'VERSION',
    get: (text) => /export const VERSION = '([^']*)'/.exec(text)?.[1],
    set: (text, v) => text.replace(/(export const VERSION = ')[^']*'/, `$1${v}'`),
  },
  {
    file: 'manifests/manifest.xml',
    what: '<Version> (x.y.z.0)',
    get: (text) =>
      /<Version>(\d+\.\d+\.\d+)\.0<\/Version>/.exec(text)?.[1] ?? /<Version>([^<]*)<\/Version>/.exec(text)?.[1],
    set: (text, v) => text.replace(/<Version>[^<]*<\/Version>/, `<Version>${v}.0</Version>`),
  },
  { file: 'manifests/manifest.json', what: 'version', ...topLevelVersion },
  {
    file: 'python/pyproject.toml',
    what: 'the dchub wheel: [project] version',
    get: (text) => /^version = "([^"]*)"/m.exec(text)?.[1],
    set: (text, v) => text.replace(/^(version = ")[^"]*"/m, `$1${v}"`),
  },
  {
    file: 'jupyter-extension/pyproject.toml',
    what: 'the dchub-jupyterlab wheel: its pin of dchub',
    get: (text) => /^\s*"dchub==([^"]*)",/m.exec(text)?.[1],
    set: (text, v) => text.replace(/^(\s*"dchub==)[^"]*",/m, `$1${v}",`),
  },
];

/** The stamps that disagree with `version`: [{ file, what, found }]. */
export function disagreements(version = rootVersion()) {
  return STAMPS.map((s) => ({ file: s.file, what: s.what, found: s.get(read(s.file)) })).filter(
    (s) => s.found !== version,
  );
}

/** Stamps `version` everywhere (the root's too); returns the files changed. */
export function stamp(version) {
  if (!PLAIN.test(version))
    throw new Error(`the version must be plain x.y.z (Office's manifests take nothing else): ${version}`);
  const changed = new Set();
  for (const s of [{ file: 'package.json', ...topLevelVersion }, ...STAMPS]) {
    const before = read(s.file);
    const after = s.set(before, version);
    if (after !== before) {
      writeFileSync(root + s.file, after);
      changed.add(s.file);
    }
  }
  return [...changed];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = process.argv[2];
  if (arg) {
    const version = arg === '--write' ? rootVersion() : arg;
    let changed;
    try {
      changed = stamp(version);
    } catch (err) {
      console.error(err.message);
      process.exit(1);
    }
    console.log(`version ${version}: ${changed.length ? changed.join(', ') : 'nothing to change'}`);
  } else {
    const version = rootVersion();
    const bad = disagreements(version);
    for (const b of bad) console.error(`${b.file} (${b.what}): ${b.found ?? 'not found'}, not ${version}`);
    if (!PLAIN.test(version)) console.error(`package.json: ${version} is not a plain x.y.z version`);
    if (bad.length || !PLAIN.test(version)) process.exit(1);
    console.log(`version ${version}: ${STAMPS.length} stamps agree`);
  }
}
