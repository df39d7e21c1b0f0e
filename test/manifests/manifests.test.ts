// Offline checks of both add-in manifests. `office-addin-manifest validate` needs the network for
// an XML manifest (it posts the file to a Microsoft service), so the structure is checked here:
// the XML with a real parser (xml2js, strict sax), the unified JSON manifest against the teams
// v1.25 JSON schema bundled in @microsoft/app-manifest (Ajv, draft-04), and the two against each other.
// The release runs the same checks on what it built: DCHUB_MANIFEST_DIR names a production build's directory
// (both manifests and assets/), whose URLs are DCHUB_ADDIN_URL's (scripts/release.mjs).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import xml2js from 'xml2js';
import { DEV_URL, productionUrl } from '../../excel-addin/manifest-url.js';
import { unifiedSchemaValidator } from './unified-schema';
import { beforeAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dir = process.env.DCHUB_MANIFEST_DIR ? path.resolve(process.env.DCHUB_MANIFEST_DIR) : undefined;
/** Where the add-in is served from: the development server, or the production build's URL. */
const base = dir ? productionUrl() : DEV_URL;
const xmlText = readFileSync(path.join(dir ?? path.join(root, 'manifests'), 'manifest.xml'), 'utf8');
const jsonText = readFileSync(path.join(dir ?? path.join(root, 'manifests'), 'manifest.json'), 'utf8');

type Node = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Children named `name` of a parsed element (xml2js keeps every child as an array). */
const kids = (n: Node | undefined, name: string): Node[] =>
  ((n?.[name] as Node[] | undefined) ?? []).map((k) => (typeof k === 'string' ? { _: k } : k));
const one = (n: Node | undefined, ...names: string[]): Node => {
  let cur = n;
  for (const name of names) {
    const list = kids(cur, name);
    expect(list, `exactly one <${name}>`).toHaveLength(1);
    cur = list[0];
  }
  return cur!;
};
const text = (n: Node) => (n._ ?? '').trim();

/** Every element of the tree, depth first, with its tag. */
function* walk(n: Node, tag = 'OfficeApp'): Generator<[string, Node]> {
  yield [tag, n];
  for (const [k, v] of Object.entries(n)) {
    if (k === '$' || k === '_' || !Array.isArray(v)) continue;
    for (const c of v) {
      if (typeof c === 'string') yield [k, { _: c }];
      else if (c && typeof c === 'object') yield* walk(c as Node, k);
    }
  }
}

let app: Node;
let resources: Map<string, { kind: string; value: string }>;
const res = (id: string) => {
  const r = resources.get(id);
  expect(r, `resource ${id}`).toBeDefined();
  return r!.value;
};

beforeAll(async () => {
  const doc = await xml2js.parseStringPromise(xmlText, { strict: true });
  app = doc.OfficeApp;
  resources = new Map();
  const r = one(app, 'VersionOverrides', 'Resources');
  for (const [group, item] of [
    ['bt:Images', 'bt:Image'],
    ['bt:Urls', 'bt:Url'],
    ['bt:ShortStrings', 'bt:String'],
    ['bt:LongStrings', 'bt:String'],
  ]) {
    for (const el of kids(one(r, group), item)) {
      const id = el.$!.id;
      expect(resources.has(id), `resource id ${id} defined once`).toBe(false);
      resources.set(id, { kind: group, value: el.$!.DefaultValue });
    }
  }
});

describe('manifest.xml', () => {
  it('is well-formed XML (strict parser) with the add-in-only root', async () => {
    await expect(xml2js.parseStringPromise(xmlText.replace('</Hosts>', ''), { strict: true })).rejects.toThrow();
    expect(app.$!['xsi:type']).toBe('TaskPaneApp');
    expect(app.$!.xmlns).toBe('http://schemas.microsoft.com/office/appforoffice/1.1');
  });

  it('has an Id GUID, a four-part Version, the Workbook host and SharedRuntime 1.1', () => {
    expect(text(one(app, 'Id'))).toMatch(GUID);
    expect(text(one(app, 'Version'))).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(kids(one(app, 'Hosts'), 'Host').map((h) => h.$!.Name)).toEqual(['Workbook']);
    const sets = kids(one(app, 'Requirements', 'Sets'), 'Set').map((s) => s.$);
    expect(sets).toContainEqual({ Name: 'SharedRuntime', MinVersion: '1.1' });
    expect(text(one(app, 'Permissions'))).toBe('ReadWriteDocument');
    expect(one(app, 'DefaultSettings', 'SourceLocation').$!.DefaultValue).toBe(res('Taskpane.Url'));
  });

  it('declares a long-lived shared runtime first in the Workbook host, on the task pane page', () => {
    const host = one(app, 'VersionOverrides', 'Hosts', 'Host');
    expect(host.$!['xsi:type']).toBe('Workbook');
    const rt = one(host, 'Runtimes', 'Runtime');
    expect(rt.$).toEqual({ resid: 'Taskpane.Url', lifetime: 'long' });
    // Order matters (docs): Runtimes is the Host's first child.
    const hostXml = xmlText.slice(xmlText.indexOf('<Host xsi:type="Workbook">'));
    expect(hostXml.replace(/<!--[\s\S]*?-->/g, '').match(/<Host xsi:type="Workbook">\s*<(\w+)/)?.[1]).toBe('Runtimes');
    expect(one(host, 'DesktopFormFactor', 'FunctionFile').$!.resid).toBe('Taskpane.Url');
  });

  it('has the CustomFunctions extension point with Script, Page, Metadata and Namespace = DCHUB', () => {
    const host = one(app, 'VersionOverrides', 'Hosts', 'Host');
    const eps = kids(one(host, 'AllFormFactors'), 'ExtensionPoint').filter(
      (e) => e.$!['xsi:type'] === 'CustomFunctions',
    );
    expect(eps).toHaveLength(1);
    const ep = eps[0];
    expect(res(one(ep, 'Script', 'SourceLocation').$!.resid)).toMatch(/\/functions\.js$/);
    expect(one(ep, 'Page', 'SourceLocation').$!.resid).toBe('Taskpane.Url');
    expect(res(one(ep, 'Metadata', 'SourceLocation').$!.resid)).toMatch(/\/functions\.json$/);
    const ns = one(ep, 'Namespace').$!.resid;
    expect(resources.get(ns)?.kind).toBe('bt:ShortStrings');
    expect(res(ns)).toBe('DCHUB');
  });

  it('shows the task pane from a Home tab button, with no TaskpaneId in the shared runtime', () => {
    const surface = kids(one(app, 'VersionOverrides', 'Hosts', 'Host', 'DesktopFormFactor'), 'ExtensionPoint').find(
      (e) => e.$!['xsi:type'] === 'PrimaryCommandSurface',
    );
    const tab = one(surface, 'OfficeTab');
    expect(tab.$!.id).toBe('TabHome');
    const action = one(tab, 'Group', 'Control', 'Action');
    expect(action.$!['xsi:type']).toBe('ShowTaskpane');
    expect(kids(action, 'TaskpaneId')).toHaveLength(0);
    expect(one(action, 'SourceLocation').$!.resid).toBe('Taskpane.Url');
  });

  it('defines every resid it uses and uses every resource it defines', () => {
    const used = new Set<string>();
    for (const [, n] of walk(app)) if (n.$?.resid) used.add(n.$.resid);
    expect([...used].filter((id) => !resources.has(id))).toEqual([]);
    expect([...resources.keys()].filter((id) => !used.has(id))).toEqual([]);
    for (const [id, r] of resources) {
      if (r.kind === 'bt:ShortStrings') expect(r.value.length, id).toBeLessThanOrEqual(125);
      if (r.kind === 'bt:LongStrings') expect(r.value.length, id).toBeLessThanOrEqual(250);
    }
  });

  it('uses https for every URL', () => {
    const urls: string[] = [];
    for (const [, n] of walk(app)) {
      for (const v of [...Object.values(n.$ ?? {}), n._ ?? ''])
        if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v.trim()) && !/schemas\.microsoft\.com|www\.w3\.org/.test(v))
          urls.push(v.trim());
    }
    expect(urls).toContain('https://dchub.cloud'); // text content (AppDomain) is checked too
    expect(urls.length).toBeGreaterThan(8);
    expect(urls.filter((u) => !u.startsWith('https://'))).toEqual([]);
  });
});

describe('manifest.json (unified manifest)', () => {
  const m = JSON.parse(jsonText);
  const ext = m.extensions?.[0];
  const runtime = ext?.runtimes?.[0];

  it('validates against the bundled teams JSON schema of its $schema version', () => {
    const { version, validate } = unifiedSchemaValidator(m.$schema);
    expect(version === 'vDevPreview' || Number(version.slice(3)) >= 25, 'a teams v1.25+ or devPreview $schema').toBe(
      true,
    );
    expect(validate(m), JSON.stringify(validate.errors, null, 1)).toBe(true);
    expect(m.manifestVersion).toBe(version.slice(1));
    // The validator does catch mistakes.
    const broken = structuredClone(m);
    delete broken.extensions[0].runtimes[0].code;
    broken.extensions[0].runtimes[0].customFunctions.namespace.id = '1DCHUB';
    expect(validate(broken)).toBe(false);
  });

  it('has a long-lived shared runtime on the task pane page holding the DCHUB custom functions', () => {
    expect(ext.requirements.capabilities).toContainEqual({ name: 'SharedRuntime', minVersion: '1.1' });
    expect(ext.requirements.scopes).toEqual(['workbook']);
    expect(ext.runtimes).toHaveLength(1);
    expect(runtime).toMatchObject({ type: 'general', lifetime: 'long', code: { page: `${base}taskpane.html` } });
    expect(runtime.requirements.capabilities).toContainEqual({ name: 'SharedRuntime', minVersion: '1.1' });
    // Cards (entity values) as results and arguments: the unified manifest says so too, as functions.json does.
    expect(runtime.customFunctions).toEqual({
      namespace: { id: 'DCHUB', name: 'DCHUB' },
      metadataUrl: `${base}functions.json`,
      allowCustomDataForDataTypeAny: true,
    });
    expect(ext.customFunctions).toBeUndefined(); // inside the runtime, as in the working samples
  });

  it('shows the task pane from a ribbon button (openPage, no view: one pane per shared runtime)', () => {
    const actions = new Map(runtime.actions.map((a: { id: string }) => [a.id, a]));
    const controls = ext.ribbons.flatMap((r: any) =>
      r.tabs.flatMap((t: any) => t.groups.flatMap((g: any) => g.controls)),
    );
    expect(controls.length).toBeGreaterThan(0);
    for (const c of controls) {
      const a = actions.get(c.actionId) as { type: string; view?: string } | undefined;
      expect(a, `action ${c.actionId}`).toBeDefined();
      expect(a!.type).toBe('openPage');
      expect(a!.view).toBeUndefined();
      expect(c.icons.map((i: { size: number }) => i.size)).toEqual([16, 32, 80]);
    }
  });

  it('names icon files that exist beside the build', () => {
    for (const rel of Object.values<string>(m.icons))
      expect(existsSync(path.join(dir ?? path.join(root, 'excel-addin'), rel)), rel).toBe(true);
  });

  it('uses https for every URL', () => {
    const urls: string[] = [];
    const visit = (v: unknown, key = ''): void => {
      if (typeof v === 'string') {
        if (key !== '$schema' && /^[a-z][a-z0-9+.-]*:\/\//i.test(v)) urls.push(v);
      } else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, k);
    };
    visit(m);
    expect(urls.length).toBeGreaterThan(8);
    expect(urls.filter((u) => !u.startsWith('https://'))).toEqual([]);
  });
});

describe('the two manifests describe the same add-in', () => {
  const m = JSON.parse(jsonText);
  const ext = m.extensions[0];
  const runtime = ext.runtimes[0];

  it('same id, version, namespace and URLs', () => {
    expect(m.id).toBe(text(one(app, 'Id')));
    expect(`${m.version}.0`).toBe(text(one(app, 'Version')));
    expect(runtime.customFunctions.namespace.id).toBe(res('Functions.Namespace'));
    expect(runtime.code.page).toBe(res('Taskpane.Url'));
    expect(runtime.code.script).toBe(res('Functions.Script.Url'));
    expect(runtime.customFunctions.metadataUrl).toBe(res('Functions.Metadata.Url'));
    expect(ext.getStartedMessages[0].learnMoreUrl).toBe(res('GetStarted.LearnMoreUrl'));
    const xmlImages = new Set([...resources.values()].filter((r) => r.kind === 'bt:Images').map((r) => r.value));
    const jsonImages = new Set<string>(
      ext.ribbons
        .flatMap((r: any) =>
          r.tabs.flatMap((t: any) =>
            t.groups.flatMap((g: any) => [...g.icons, ...g.controls.flatMap((c: any) => c.icons)]),
          ),
        )
        .map((i: { url: string }) => i.url),
    );
    expect(jsonImages).toEqual(xmlImages);
    expect(m.validDomains.map((d: string) => `https://${d}`)).toEqual(
      kids(one(app, 'AppDomains'), 'AppDomain').map(text),
    );
  });

  it('same display strings', () => {
    expect(m.name.short).toBe(one(app, 'DisplayName').$!.DefaultValue);
    expect(m.developer.name).toBe(text(one(app, 'ProviderName')));
    expect(ext.getStartedMessages[0].title).toBe(res('GetStarted.Title'));
    expect(ext.getStartedMessages[0].description).toBe(res('GetStarted.Description'));
  });
});
