import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import type { ReadonlyJSONObject } from '@lumino/coreutils';
import type { SectionActions } from '../dom';
import type { SectionOptions } from '../section';
import { CATEGORY, CommandIDs, IDchub, IDchubCharts } from '../tokens';

/** What `addCommand` takes. */
export type CommandOptions = Parameters<JupyterFrontEnd['commands']['addCommand']>[1];
/** The arguments a command is executed with. */
export type CommandArgs = Parameters<CommandOptions['execute']>[0];

/** The export and notebook buttons of every table: they run the export plugin's commands. */
export function sectionActions(commands: JupyterFrontEnd['commands']): SectionActions {
  return {
    exportCsv: (kind) => void commands.execute(CommandIDs.exportCsv, { section: kind }),
    insertInNotebook: (kind) => void commands.execute(CommandIDs.insertNotebook, { section: kind }),
    insertCsvInNotebook: (kind) => void commands.execute(CommandIDs.insertCsvNotebook, { section: kind })
  };
}

/** What a section plugin's activation is given. */
export interface SectionContext {
  app: JupyterFrontEnd;
  commands: JupyterFrontEnd['commands'];
  dchub: IDchub;
  palette: ICommandPalette | null;
  base: SectionOptions;
}

/**
 * A panel section as a plugin of its own (one plugin per feature): it needs the panel (IDchub) and
 * takes the command palette and the chart renderer when they are there.
 */
export function sectionPlugin(
  name: string,
  description: string,
  activate: (context: SectionContext) => void
): JupyterFrontEndPlugin<void> {
  return {
    id: `@dchub/jupyterlab:${name}`,
    description,
    autoStart: true,
    requires: [IDchub],
    optional: [ICommandPalette, IDchubCharts],
    activate: (app: JupyterFrontEnd, dchub: IDchub, palette: ICommandPalette | null, charts: IDchubCharts | null) => {
      const { commands } = app;
      const base: SectionOptions = {
        connection: dchub.connection,
        showView: (view) => dchub.showView(view),
        actions: sectionActions(commands),
        charts
      };
      activate({ app, commands, dchub, palette, base });
    }
  };
}

/**
 * Registers a command that runs a feature's request: `fill` puts the arguments into the form,
 * then the section is shown, the settings awaited, `run` called and the quota line updated.
 */
export function addPanelCommand(
  app: JupyterFrontEnd,
  dchub: IDchub,
  palette: ICommandPalette | null,
  id: string,
  section: string,
  options: Pick<CommandOptions, 'label' | 'caption'> & {
    /** The arguments the command takes (JSON Schema properties), for the command palette and for agents. */
    args: ReadonlyJSONObject;
    fill?: (args: CommandArgs) => void | Promise<void>;
    run: (args: CommandArgs) => Promise<unknown>;
  }
): void {
  const { label, caption, args, fill, run } = options;
  app.commands.addCommand(id, {
    label,
    caption,
    describedBy: { args: { type: 'object', properties: args } },
    execute: async (args) => {
      await dchub.settingsLoaded;
      await fill?.(args);
      dchub.showSection(section);
      const result = await run(args);
      void dchub.updateQuota();
      return result;
    }
  });
  palette?.addItem({ command: id, category: CATEGORY });
}

/** A command argument as form text (undefined when absent). */
export function argText(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

export function argList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string')
    return value
      .split(/[,;]/)
      .map((s) => s.trim())
      .filter(Boolean);
  return undefined;
}

export function argBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return undefined;
}
