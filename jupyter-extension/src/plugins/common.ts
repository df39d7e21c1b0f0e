import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { ICommandPalette } from '@jupyterlab/apputils';
import type { SectionActions } from '../dom';
import { CATEGORY, CommandIDs, type IDchub } from '../tokens';

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
    /** The arguments the command takes (JSON Schema), for the command palette and for agents. */
    describedBy: NonNullable<CommandOptions['describedBy']>;
    fill?: (args: CommandArgs) => void | Promise<void>;
    run: (args: CommandArgs) => Promise<unknown>;
  }
): void {
  const { label, caption, describedBy, fill, run } = options;
  app.commands.addCommand(id, {
    label,
    caption,
    describedBy,
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
