import { toCsv, type Table } from '@dchub/core';
import { PathExt } from '@jupyterlab/coreutils';
import { NotebookActions, type NotebookPanel } from '@jupyterlab/notebook';
import type { Contents } from '@jupyterlab/services';
import {
  citationFileName,
  citationMarkdown,
  citationText,
  dateColumnsOf,
  datedFileName,
  joinPath,
  numberedFileName,
  pandasSnippet
} from './exportFiles';
import type { PythonCall } from './dom';
import { pythonCell, pythonMarkdown } from './pycode';

/** Where an export went. */
export interface ExportResult {
  /** Contents path of the CSV (server-root relative). */
  path: string;
  /** Contents path of the citation written beside it. */
  citationPath: string;
  rows: number;
  columns: number;
}

/** Whether a path exists in the workspace. */
async function exists(contents: Contents.IManager, path: string): Promise<boolean> {
  try {
    await contents.get(path, { content: false });
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a table as formula-safe CSV into `dir` through the Contents API, named
 * `dchub-<kind>-<YYYY-MM-DD>.csv` (`-2`, `-3`, ... when that day's name is taken, so an earlier
 * export a notebook already loads is never overwritten), with the citation in a sibling
 * `.citation.txt` (a comment line would make the CSV invalid). The file holds only the table:
 * no key, no request details.
 */
export async function exportTableCsv(
  contents: Contents.IManager,
  dir: string,
  source: { kind: string; exportTitle: string },
  table: Table,
  now: Date = new Date()
): Promise<ExportResult> {
  const base = datedFileName(source.kind, now);
  let n = 1;
  while (n < 1000 && (await exists(contents, joinPath(dir, numberedFileName(base, n))))) n++;
  const name = numberedFileName(base, n);
  const path = joinPath(dir, name);
  await contents.save(path, { type: 'file', format: 'text', content: toCsv(table) });
  const citationPath = citationFileName(path);
  await contents.save(citationPath, {
    type: 'file',
    format: 'text',
    content: citationText({
      title: source.exportTitle,
      csvName: name,
      citation: table.citation,
      asOf: table.asOf,
      rows: table.rows.length,
      exportedAt: now
    })
  });
  return { path, citationPath, rows: table.rows.length, columns: table.columns.length };
}

/** Adds a markdown cell and a code cell below the active cell; returns their indices. */
function insertCells(
  panel: NotebookPanel,
  markdown: string,
  code: string
): { markdownIndex: number; codeIndex: number } {
  const notebook = panel.content;
  NotebookActions.insertBelow(notebook);
  NotebookActions.changeCellType(notebook, 'markdown');
  notebook.activeCell?.model.sharedModel.setSource(markdown);
  const markdownIndex = notebook.activeCellIndex;
  NotebookActions.insertBelow(notebook);
  NotebookActions.changeCellType(notebook, 'code');
  notebook.activeCell?.model.sharedModel.setSource(code);
  return { markdownIndex, codeIndex: notebook.activeCellIndex };
}

/**
 * Adds the citation and a code cell that fetches the table again through the Python API with the
 * panel's arguments (re-runnable: tomorrow's run gets tomorrow's data), and draws the chart the
 * view shows from it. `baseUrl` is written only
 * for direct connections; the key never is (the kernel reads DCHUB_API_KEY).
 */
export function insertPythonCells(
  panel: NotebookPanel,
  call: PythonCall,
  source: { exportTitle: string },
  table: Table | null,
  baseUrl?: string
): { markdownIndex: number; codeIndex: number; code: string } {
  const code = pythonCell({ call: call.call, variable: call.variable, baseUrl, chart: call.chart });
  const cells = insertCells(
    panel,
    pythonMarkdown({ title: source.exportTitle, citation: table?.citation, asOf: table?.asOf }),
    code
  );
  return { ...cells, code };
}

/**
 * Adds two cells below the active cell of `panel`: a markdown cell with the citation and a code
 * cell that loads the exported CSV (path relative to the notebook) with pandas.
 */
export function insertLoaderCells(
  panel: NotebookPanel,
  exported: ExportResult,
  source: { exportTitle: string },
  table: Table,
  now: Date = new Date()
): { markdownIndex: number; codeIndex: number } {
  const relative = PathExt.relative(PathExt.dirname(panel.context.path), exported.path);
  return insertCells(
    panel,
    citationMarkdown({
      title: source.exportTitle,
      path: relative,
      citation: table.citation,
      asOf: table.asOf,
      rows: table.rows.length,
      exportedAt: now
    }),
    pandasSnippet(relative, dateColumnsOf(table))
  );
}
