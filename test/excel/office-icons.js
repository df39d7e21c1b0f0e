// Excel's EntityCompactLayoutIcons names, read from @types/office-js at test time (not copied by
// hand): the icons a card's compact layout may name. Node only.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

let cached;

/** The values of `enum EntityCompactLayoutIcons` in the installed @types/office-js. */
export function officeIcons() {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const dts = readFileSync(require.resolve('@types/office-js/index.d.ts'), 'utf8');
  const start = dts.indexOf('enum EntityCompactLayoutIcons {');
  if (start < 0) throw new Error('@types/office-js declares no EntityCompactLayoutIcons');
  const body = dts.slice(start, dts.indexOf('\n    }', start));
  cached = [...body.matchAll(/^\s+\w+ = "([^"]+)",?$/gm)].map((m) => m[1]);
  if (cached.length < 100) throw new Error(`EntityCompactLayoutIcons: read only ${cached.length} names`);
  return cached;
}
