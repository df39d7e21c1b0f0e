// Shared-runtime build: functions.js + functions.json (from JSDoc) + taskpane.html loading both.
import CopyWebpackPlugin from 'copy-webpack-plugin';
import CustomFunctionsMetadataPlugin from 'custom-functions-metadata-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webpack from 'webpack';
import { renderPage } from '../scripts/docs/markdown.mjs';
import { DEV_URL, productionManifest, productionUrl } from './manifest-url.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The custom functions, one module per resource: their JSDoc makes functions.json. */
export const FUNCTION_MODULES = [
  'sites',
  'queue',
  'ranking',
  'briefs',
  'markets',
  'facilities',
  'feeds',
  'parcel',
  'tools',
  'account',
  'cards',
].map((m) => path.join(here, 'src', 'functions', `${m}.ts`));

const oneLine = (text) => text.replace(/\s*\n\s*/g, ' ');

/**
 * What custom-functions-metadata leaves to do in functions.json. It reads each file on its own, so a custom enum
 * used in several files (HeaderRows) is declared in each and listed once per file: keep one entry per id (they
 * must agree). And each function's help link opens its section of our own docs (docs/excel.md, rendered beside the
 * add-in as docs/excel.html) on the host that serves functions.js: the dev server, or DCHUB_ADDIN_URL.
 */
class FunctionsJson {
  constructor(helpBase) {
    this.helpBase = helpBase;
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('FunctionsJson', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'FunctionsJson', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONS },
        () => {
          const asset = compilation.getAsset('functions.json');
          if (!asset) return;
          const meta = JSON.parse(asset.source.source().toString());
          const seen = new Map();
          for (const e of meta.enums ?? []) {
            const json = JSON.stringify(e);
            if (seen.has(e.id) && seen.get(e.id) !== json)
              compilation.errors.push(
                new webpack.WebpackError(`custom enum ${e.id} is declared differently in two files`),
              );
            seen.set(e.id, json);
          }
          if (meta.enums) meta.enums = [...seen.values()].map((j) => JSON.parse(j));
          for (const f of meta.functions) {
            f.helpUrl = new URL(`docs/excel.html#dchub${f.id.toLowerCase()}`, this.helpBase).href;
            // A JSDoc description wrapped over lines is one line of help (as docs/excel.md shows it).
            for (const p of [f, ...(f.parameters ?? [])]) if (p.description) p.description = oneLine(p.description);
          }
          compilation.updateAsset('functions.json', new webpack.sources.RawSource(JSON.stringify(meta, null, 2)));
        },
      );
    });
  }
}

/** docs/*.md as HTML pages served with the add-in (the help links' targets). */
const docsPage = (content, file) => {
  const markdown = content.toString();
  const title = /^# (.+)$/m.exec(markdown)?.[1].replace(/`/g, '') ?? path.basename(file, '.md');
  return renderPage(markdown, { title: `${title} — DC Hub for Excel` });
};

const port = Number(process.env.npm_package_config_dev_server_port || 3000);

async function httpsOptions() {
  // Office requires https; office-addin-dev-certs makes a local CA and a localhost certificate.
  // Where it cannot add the CA to the system store (no sudo), use the files it generated and say
  // how to trust the CA; with no certificates at all, serve http (fine for the browser tests).
  if (process.env.DCHUB_DEV_HTTP === '1') return undefined;
  try {
    const certs = await import('office-addin-dev-certs');
    return await certs.default.getHttpsServerOptions();
  } catch (err) {
    const dir = path.join(os.homedir(), '.office-addin-dev-certs');
    try {
      const [cert, key, ca] = ['localhost.crt', 'localhost.key', 'ca.crt'].map((f) =>
        fs.readFileSync(path.join(dir, f)),
      );
      console.warn(
        `[excel-addin] ${err.message}\n[excel-addin] serving https with ${dir}; trust ${path.join(dir, 'ca.crt')} in your OS or browser to sideload.`,
      );
      return { cert, key, ca };
    } catch {
      console.warn(`[excel-addin] no dev certificates (${err.message}); serving over http`);
      return undefined;
    }
  }
}

export default async (env, argv) => {
  const dev = argv.mode !== 'production';
  const serve = Boolean(process.env.WEBPACK_SERVE);
  const https = serve ? await httpsOptions() : undefined;
  // `npm run build:prod` (--env prod): both manifests name the deployed URL (DCHUB_ADDIN_URL).
  const deployedUrl = env?.prod ? productionUrl() : undefined;
  const manifest = (content) => (deployedUrl ? productionManifest(content, deployedUrl) : content);
  return {
    context: here,
    devtool: 'source-map',
    entry: {
      functions: './src/functions/functions.ts',
      // The pane shares the functions' modules (one client, one cache layer, one ledger in the
      // shared runtime), so that its "refresh now" and key changes reach the functions.
      // functions.js keeps the webpack runtime and still loads on its own.
      taskpane: { import: './src/taskpane/taskpane.ts', dependOn: 'functions' },
      // The Map tab's renderer (Vega, core's map specs and outlines): an entry with its own runtime,
      // loaded by the pane when the tab opens, so that functions.js knows nothing of it.
      map: { import: './src/taskpane/map-render.ts', library: { name: 'DchubMap', type: 'window' } },
    },
    output: {
      path: path.join(here, 'dist'),
      filename: '[name].js',
      chunkFilename: '[name].[contenthash:8].js',
      clean: true,
    },
    resolve: { extensions: ['.ts', '.js'] },
    module: {
      rules: [
        // Core's modules have no side effects: an unused re-export (the MCP client in core's
        // index) stays out of the bundle, so TOOL's chunk alone carries the MCP SDK.
        { include: path.resolve(here, '../core/dist'), sideEffects: false },
        { test: /\.ts$/, exclude: /node_modules/, use: { loader: 'ts-loader', options: { transpileOnly: true } } },
      ],
    },
    plugins: [
      new webpack.DefinePlugin({
        DCHUB_DEFAULT_BASE_URL: JSON.stringify(process.env.DCHUB_BASE_URL || 'https://dchub.cloud'),
      }),
      new CustomFunctionsMetadataPlugin({ output: 'functions.json', input: FUNCTION_MODULES }),
      new FunctionsJson(deployedUrl ?? DEV_URL),
      new HtmlWebpackPlugin({
        filename: 'taskpane.html',
        template: './src/taskpane/taskpane.html',
        chunks: ['functions', 'taskpane'],
      }),
      new CopyWebpackPlugin({
        patterns: [
          { from: 'assets', to: 'assets' },
          { from: 'src/taskpane/taskpane.css', to: 'taskpane.css' },
          // Both manifests beside the build (the unified one names its icons relative to it: assets/…).
          { from: '../manifests/manifest.xml', to: 'manifest.xml', transform: manifest },
          { from: '../manifests/manifest.json', to: 'manifest.json', transform: manifest },
          { from: '../docs/*.md', to: 'docs/[name].html', transform: docsPage },
          { from: '../docs/*.png', to: 'docs/[name][ext]' },
        ],
      }),
    ],
    devServer: {
      port,
      host: 'localhost',
      headers: { 'Access-Control-Allow-Origin': '*' },
      server: https ? { type: 'https', options: https } : 'http',
      static: { directory: path.join(here, 'dist') },
      hot: false,
      client: false,
    },
    performance: { hints: dev ? false : 'warning', maxAssetSize: 2_000_000, maxEntrypointSize: 2_000_000 },
  };
};
