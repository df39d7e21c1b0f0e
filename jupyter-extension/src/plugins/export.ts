import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette, Notification } from '@jupyterlab/apputils';
import { PathExt } from '@jupyterlab/coreutils';
import { IDefaultFileBrowser } from '@jupyterlab/filebrowser';
import { INotebookTracker, type NotebookPanel } from '@jupyterlab/notebook';
import { exportTableCsv, insertLoaderCells, insertPythonCells } from '../exporter';
import { CATEGORY, CommandIDs, IDchub } from '../tokens';
import { argText, type CommandArgs, type CommandOptions } from './common';

/** A command label naming the section it was given (`section`), or the general one. */
const sectionLabel = (named: (section: string) => string, general: string) => (args: CommandArgs) => {
  const section = argText(args['section']);
  return section ? named(section) : general;
};

/** Shows a failed command's error as a notification; gives the command's null result. */
function notifyError(err: unknown): null {
  Notification.error(err instanceof Error ? err.message : String(err), { autoClose: 6000 });
  return null;
}

/** What the export commands work with. */
interface ExportContext {
  app: JupyterFrontEnd;
  dchub: IDchub;
  notebooks: INotebookTracker | null;
  fileBrowser: IDefaultFileBrowser | null;
}

/** The section a command names (`section`), else the one shown, else the queue. */
function sectionKind(dchub: IDchub, args: CommandArgs): string {
  const s = args['section'];
  return typeof s === 'string' && dchub.section(s) ? s : (dchub.sidebar.currentSection?.kind ?? 'queue');
}

/** A section and its table as shown; throws when there is none yet to export or insert. */
function sectionTable(dchub: IDchub, kind: string, verb: 'export' | 'insert') {
  const source = dchub.section(kind);
  if (!source) throw new Error(`DC Hub: no section "${kind}"`);
  const table = source.exportTable();
  if (!table) throw new Error(`DC Hub: nothing to ${verb} yet in ${source.exportTitle}; load some data first.`);
  return { source, table };
}

/** A command's work; a failure is shown as a notification and the command gives null. */
const notifying =
  <T>(work: (args: CommandArgs) => Promise<T>) =>
  async (args: CommandArgs): Promise<T | null> => {
    try {
      return await work(args);
    } catch (err) {
      return notifyError(err);
    }
  };

const sectionArgs = { args: { type: 'object' as const, properties: { section: { type: 'string' as const } } } };

/** Saves the section's table as CSV in the file browser's folder (or `dir`), its citation beside it. */
function exportCsvCommand({ app, dchub, fileBrowser }: ExportContext): CommandOptions {
  return {
    label: sectionLabel((s) => `Export DC Hub ${s} as CSV`, 'Export DC Hub table as CSV'),
    caption: 'Save the current DC Hub table as CSV in the file browser folder, with its citation beside it',
    describedBy: { args: { type: 'object', properties: { section: { type: 'string' }, dir: { type: 'string' } } } },
    execute: notifying(async (args) => {
      const { source, table } = sectionTable(dchub, sectionKind(dchub, args), 'export');
      const dir = typeof args['dir'] === 'string' ? args['dir'] : (fileBrowser?.model.path ?? '');
      const result = await exportTableCsv(app.serviceManager.contents, dir, source, table);
      Notification.success(
        `Saved ${result.rows} rows to ${result.path} (citation in ${PathExt.basename(result.citationPath)})`,
        { autoClose: 4000 }
      );
      return result;
    })
  };
}

/**
 * A command that adds cells to the active notebook (`insert`), then shows that notebook; enabled while a notebook is
 * open.
 */
function notebookCommand(
  { app, notebooks }: ExportContext,
  options: Pick<CommandOptions, 'label' | 'caption'> & {
    insert: (panel: NotebookPanel, args: CommandArgs) => Promise<unknown>;
  }
): CommandOptions {
  return {
    label: options.label,
    caption: options.caption,
    describedBy: sectionArgs,
    isEnabled: () => !!notebooks?.currentWidget,
    execute: notifying(async (args) => {
      const panel = notebooks?.currentWidget;
      if (!panel) throw new Error('DC Hub: open a notebook first; the cells go into the active notebook.');
      const inserted = await options.insert(panel, args);
      app.shell.activateById(panel.id);
      return inserted;
    })
  };
}

/** Cells that call the Python API with the section's arguments (and draw the chart the view shows). */
function insertNotebookCommand(c: ExportContext): CommandOptions {
  const { dchub } = c;
  return notebookCommand(c, {
    label: sectionLabel((s) => `Insert DC Hub ${s} in notebook`, 'Insert DC Hub table in notebook'),
    caption:
      'Add cells that fetch the current DC Hub table with the Python API (with the panel’s arguments) to the active notebook',
    insert: async (panel, args) => {
      const source = dchub.section(sectionKind(dchub, args));
      const call = source?.pythonCall?.();
      if (!source || !call)
        throw new Error(
          `DC Hub: nothing to insert yet in ${source?.exportTitle ?? 'this section'}; load some data first.`
        );
      const state = dchub.connection.state;
      // The chart the view shows, drawn from the data line (`charts.queue_map(df)`).
      const chart = source.charts?.pythonChart(call.variable ?? 'df') ?? undefined;
      const serviceUrl = state.mode === 'direct' ? state.serviceUrl : undefined;
      return insertPythonCells(panel, { ...call, chart }, source, source.exportTable(), serviceUrl);
    }
  });
}

/** The section's table as a CSV snapshot next to the notebook, and cells that load it with pandas. */
function insertCsvNotebookCommand(c: ExportContext): CommandOptions {
  const { app, dchub } = c;
  return notebookCommand(c, {
    label: sectionLabel((s) => `Insert DC Hub ${s} CSV snapshot in notebook`, 'Insert DC Hub CSV snapshot in notebook'),
    caption:
      'Export the current DC Hub table next to the active notebook and add cells that load that snapshot with pandas',
    insert: async (panel, args) => {
      const { source, table } = sectionTable(dchub, sectionKind(dchub, args), 'insert');
      const dir = PathExt.dirname(panel.context.path);
      const exported = await exportTableCsv(app.serviceManager.contents, dir, source, table);
      return { ...exported, ...insertLoaderCells(panel, exported, source, table) };
    }
  });
}

/**
 * Tables into files and notebooks: CSV export (with the citation beside it), notebook cells that
 * call the Python API with the panel's arguments (re-runnable), or a CSV snapshot with a loader.
 */
export const exportPlugin: JupyterFrontEndPlugin<void> = {
  id: '@dchub/jupyterlab:export',
  description: 'DC Hub tables as CSV files and notebook cells.',
  autoStart: true,
  requires: [IDchub],
  optional: [ICommandPalette, INotebookTracker, IDefaultFileBrowser],
  activate: (
    app: JupyterFrontEnd,
    dchub: IDchub,
    palette: ICommandPalette | null,
    notebooks: INotebookTracker | null,
    fileBrowser: IDefaultFileBrowser | null
  ) => {
    const context: ExportContext = { app, dchub, notebooks, fileBrowser };
    app.commands.addCommand(CommandIDs.exportCsv, exportCsvCommand(context));
    app.commands.addCommand(CommandIDs.insertNotebook, insertNotebookCommand(context));
    app.commands.addCommand(CommandIDs.insertCsvNotebook, insertCsvNotebookCommand(context));
    for (const command of [CommandIDs.exportCsv, CommandIDs.insertNotebook, CommandIDs.insertCsvNotebook])
      palette?.addItem({ command, category: CATEGORY });
  }
};
