import {
  ILayoutRestorer,
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette, IThemeManager } from '@jupyterlab/apputils';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { dchubIcon } from './icons';
import { DEFAULT_CONFIG, QueuePanel, type PanelConfig, type QueueQuery } from './queuePanel';

export { QueueModel } from './queueModel';
export { QueuePanel, DEFAULT_CONFIG, type PanelConfig, type QueueQuery } from './queuePanel';
export { dchubIcon } from './icons';

/** Plugin id; its settings schema is `schema/plugin.json`. */
export const PLUGIN_ID = '@dchub/jupyterlab:plugin';

export namespace CommandIDs {
  export const openPanel = 'dchub:open-panel';
  export const searchQueue = 'dchub:search-queue';
}

const CATEGORY = 'DC Hub';

/** Reads the plugin's settings, falling back to the schema defaults on odd values. */
function readConfig(settings: ISettingRegistry.ISettings): PanelConfig {
  const baseUrl = settings.get('baseUrl').composite;
  const limit = settings.get('defaultLimit').composite;
  return {
    baseUrl: typeof baseUrl === 'string' && baseUrl.trim() ? baseUrl.trim() : DEFAULT_CONFIG.baseUrl,
    limit:
      typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= 1000
        ? limit
        : DEFAULT_CONFIG.limit
  };
}

/**
 * The DC Hub sidebar with the interconnection-queue search, its two commands and its settings.
 */
const plugin: JupyterFrontEndPlugin<void> = {
  id: PLUGIN_ID,
  description: 'DC Hub data-center market intelligence: interconnection-queue search in a sidebar data grid.',
  autoStart: true,
  optional: [ISettingRegistry, ICommandPalette, ILayoutRestorer, IThemeManager],
  activate: (
    app: JupyterFrontEnd,
    settingRegistry: ISettingRegistry | null,
    palette: ICommandPalette | null,
    restorer: ILayoutRestorer | null,
    themeManager: IThemeManager | null
  ) => {
    const { commands, shell } = app;

    const panel = new QueuePanel({
      onSearch: () => void commands.execute(CommandIDs.searchQueue)
    });
    panel.title.icon = dchubIcon;
    panel.title.caption = 'DC Hub';
    shell.add(panel, 'left', { rank: 700 });
    restorer?.add(panel, panel.id);

    // Searches wait for the user's settings so the first one goes to the configured service.
    const settingsLoaded: Promise<void> = settingRegistry
      ? settingRegistry
          .load(PLUGIN_ID)
          .then((settings) => {
            panel.configure(readConfig(settings));
            settings.changed.connect(() => panel.configure(readConfig(settings)));
          })
          .catch((reason: unknown) => {
            console.error(`DC Hub: could not load settings for ${PLUGIN_ID}`, reason);
          })
      : Promise.resolve();

    themeManager?.themeChanged.connect(() => {
      // Theme CSS variables are applied after the signal; read them on the next frame.
      requestAnimationFrame(() => panel.updateTheme());
    });

    commands.addCommand(CommandIDs.openPanel, {
      label: 'Open DC Hub panel',
      caption: 'Show the DC Hub sidebar',
      icon: dchubIcon,
      execute: () => {
        shell.activateById(panel.id);
      }
    });

    commands.addCommand(CommandIDs.searchQueue, {
      label: 'Search interconnection queue',
      caption: 'Run the DC Hub queue search with the panel form (or with iso, min_mw, max_ttp_months arguments)',
      describedBy: {
        args: {
          type: 'object',
          properties: {
            iso: { type: 'string', description: "ISO, or '' for all" },
            min_mw: { type: ['string', 'number'], description: 'Minimum project capacity, MW' },
            max_ttp_months: { type: ['string', 'number'], description: 'Maximum ISO time to power, months' }
          }
        }
      },
      execute: async (args) => {
        const q: Partial<QueueQuery> = {};
        for (const key of ['iso', 'min_mw', 'max_ttp_months'] as const) {
          const value = args[key];
          if (typeof value === 'string' || typeof value === 'number') q[key] = String(value);
        }
        panel.query = q;
        if (!panel.isVisible) shell.activateById(panel.id);
        await settingsLoaded;
        return panel.search();
      }
    });

    palette?.addItem({ command: CommandIDs.openPanel, category: CATEGORY });
    palette?.addItem({ command: CommandIDs.searchQueue, category: CATEGORY });
  }
};

export default [plugin];
