import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette, Notification } from '@jupyterlab/apputils';
import { PathExt } from '@jupyterlab/coreutils';
import { IDefaultFileBrowser } from '@jupyterlab/filebrowser';
import { INotebookTracker } from '@jupyterlab/notebook';
import { exportTableCsv, insertLoaderCells, insertPythonCells } from '../exporter';
import { CATEGORY, CommandIDs, IDchub } from '../tokens';
import { argText, type CommandArgs } from './common';

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
    const { commands, shell } = app;
    const kindOf = (args: Readonly<Record<string, unknown>>): string => {
      const s = args['section'];
      return typeof s === 'string' && dchub.section(s) ? s : (dchub.sidebar.currentSection?.kind ?? 'queue');
    };
    /** A section and its table as shown; throws when there is none yet to export or insert. */
    const sectionTable = (kind: string, verb: 'export' | 'insert') => {
      const source = dchub.section(kind);
      if (!source) throw new Error(`DC Hub: no section "${kind}"`);
      const table = source.exportTable();
      if (!table) throw new Error(`DC Hub: nothing to ${verb} yet in ${source.exportTitle}; load some data first.`);
      return { source, table };
    };
    const activeNotebook = () => {
      const panel = notebooks?.currentWidget;
      if (!panel) throw new Error('DC Hub: open a notebook first; the cells go into the active notebook.');
      return panel;
    };
    const sectionArgs = { args: { type: 'object' as const, properties: { section: { type: 'string' as const } } } };

    commands.addCommand(CommandIDs.exportCsv, {
      label: sectionLabel((s) => `Export DC Hub ${s} as CSV`, 'Export DC Hub table as CSV'),
      caption: 'Save the current DC Hub table as CSV in the file browser folder, with its citation beside it',
      describedBy: { args: { type: 'object', properties: { section: { type: 'string' }, dir: { type: 'string' } } } },
      execute: async (args) => {
        try {
          const { source, table } = sectionTable(kindOf(args), 'export');
          const dir = typeof args['dir'] === 'string' ? args['dir'] : (fileBrowser?.model.path ?? '');
          const result = await exportTableCsv(app.serviceManager.contents, dir, source, table);
          Notification.success(
            `Saved ${result.rows} rows to ${result.path} (citation in ${PathExt.basename(result.citationPath)})`,
            { autoClose: 4000 }
          );
          return result;
        } catch (err) {
          return notifyError(err);
        }
      }
    });

    commands.addCommand(CommandIDs.insertNotebook, {
      label: sectionLabel((s) => `Insert DC Hub ${s} in notebook`, 'Insert DC Hub table in notebook'),
      caption:
        'Add cells that fetch the current DC Hub table with the Python API (with the panel’s arguments) to the active notebook',
      describedBy: sectionArgs,
      isEnabled: () => !!notebooks?.currentWidget,
      execute: async (args) => {
        try {
          const panel = activeNotebook();
          const source = dchub.section(kindOf(args));
          const call = source?.pythonCall?.();
          if (!source || !call)
            throw new Error(
              `DC Hub: nothing to insert yet in ${source?.exportTitle ?? 'this section'}; load some data first.`
            );
          const state = dchub.connection.state;
          // The chart the view shows, drawn from the data line (`charts.queue_map(df)`).
          const chart = source.charts?.pythonChart(call.variable ?? 'df') ?? undefined;
          const cells = insertPythonCells(
            panel,
            { ...call, chart },
            source,
            source.exportTable(),
            state.mode === 'direct' ? state.serviceUrl : undefined
          );
          shell.activateById(panel.id);
          return cells;
        } catch (err) {
          return notifyError(err);
        }
      }
    });

    commands.addCommand(CommandIDs.insertCsvNotebook, {
      label: sectionLabel(
        (s) => `Insert DC Hub ${s} CSV snapshot in notebook`,
        'Insert DC Hub CSV snapshot in notebook'
      ),
      caption:
        'Export the current DC Hub table next to the active notebook and add cells that load that snapshot with pandas',
      describedBy: sectionArgs,
      isEnabled: () => !!notebooks?.currentWidget,
      execute: async (args) => {
        try {
          const panel = activeNotebook();
          const { source, table } = sectionTable(kindOf(args), 'insert');
          const exported = await exportTableCsv(
            app.serviceManager.contents,
            PathExt.dirname(panel.context.path),
            source,
            table
          );
          const cells = insertLoaderCells(panel, exported, source, table);
          shell.activateById(panel.id);
          return { ...exported, ...cells };
        } catch (err) {
          return notifyError(err);
        }
      }
    });
    for (const command of [CommandIDs.exportCsv, CommandIDs.insertNotebook, CommandIDs.insertCsvNotebook])
      palette?.addItem({ command, category: CATEGORY });
  }
};
