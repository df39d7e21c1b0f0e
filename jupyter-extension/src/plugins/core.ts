import { ILayoutRestorer, type JupyterFrontEnd, type JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette, IThemeManager } from '@jupyterlab/apputils';
import { ILauncher } from '@jupyterlab/launcher';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { QUEUE_LIMIT_MAX } from '@dchub/core';
import { Connection, DEFAULT_CONFIG, type PanelConfig } from '../connection';
import { dchubIcon } from '../icons';
import { focusResults } from '../dom';
import { DchubSidebar } from '../sidebar';
import { CATEGORY, CommandIDs, IDchub } from '../tokens';
import { ViewManager } from '../views';

/** Plugin id of the core; its settings schema is `schema/plugin.json`. */
export const PLUGIN_ID = '@dchub/jupyterlab:plugin';

/** Reads the plugin's settings, falling back to the schema defaults on odd values. */
function readConfig(settings: ISettingRegistry.ISettings): PanelConfig {
  const baseUrl = settings.get('baseUrl').composite;
  const limit = settings.get('defaultLimit').composite;
  const connection = settings.get('connection').composite;
  const refresh = settings.get('briefsRefreshMinutes').composite;
  return {
    baseUrl: typeof baseUrl === 'string' && baseUrl.trim() ? baseUrl.trim() : DEFAULT_CONFIG.baseUrl,
    limit:
      typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= QUEUE_LIMIT_MAX
        ? limit
        : DEFAULT_CONFIG.limit,
    connection:
      connection === 'proxy' || connection === 'direct' || connection === 'auto'
        ? connection
        : DEFAULT_CONFIG.connection,
    briefsRefreshMinutes:
      typeof refresh === 'number' && refresh >= 0 && refresh <= 1440 ? refresh : DEFAULT_CONFIG.briefsRefreshMinutes
  };
}

/**
 * The core of DC Hub: the connection (relay or direct) and its settings, the sidebar with its
 * launcher row, the main-area view manager, a "DC Hub" launcher card. Provides `IDchub` to the
 * feature plugins.
 */
export const corePlugin: JupyterFrontEndPlugin<IDchub> = {
  id: PLUGIN_ID,
  description: 'DC Hub data-center market intelligence: the connection, the sidebar and the main-area views.',
  autoStart: true,
  provides: IDchub,
  optional: [ISettingRegistry, ICommandPalette, ILayoutRestorer, IThemeManager, ILauncher],
  activate: (
    app: JupyterFrontEnd,
    settingRegistry: ISettingRegistry | null,
    palette: ICommandPalette | null,
    restorer: ILayoutRestorer | null,
    themeManager: IThemeManager | null,
    launcher: ILauncher | null
  ): IDchub => {
    const { commands, shell } = app;
    const connection = new Connection();
    const sidebar = new DchubSidebar({ connection });
    sidebar.title.icon = dchubIcon;
    shell.add(sidebar, 'left', { rank: 700 });
    restorer?.add(sidebar, sidebar.id);
    const views = new ViewManager(shell as never, dchubIcon);

    // Calls wait for the user's settings so the first one goes to the configured service.
    const settingsLoaded: Promise<void> = settingRegistry
      ? settingRegistry
          .load(PLUGIN_ID)
          .then((settings) => {
            const apply = () => connection.configure(readConfig(settings));
            apply();
            settings.changed.connect(apply);
          })
          .catch((reason: unknown) => {
            console.error(`DC Hub: could not load settings for ${PLUGIN_ID}`, reason);
          })
      : Promise.resolve();

    themeManager?.themeChanged.connect(() => {
      // Theme CSS variables are applied after the signal; read them on the next frame.
      requestAnimationFrame(() => sidebar.updateTheme());
    });

    const showSection = (section?: string) => {
      if (section) sidebar.showSection(section);
      if (!sidebar.isVisible) shell.activateById(sidebar.id);
    };

    const dchub: IDchub = {
      connection,
      sidebar,
      settingsLoaded,
      showView: (view, activate = true) => views.show(view, activate),
      addSection: (section, rank) => sidebar.addSection(section, rank),
      section: (kind) => sidebar.section(kind) as never,
      showSection,
      updateQuota: () => sidebar.updateQuota()
    };

    addCoreCommands(commands, connection, showSection);
    for (const command of [CommandIDs.openPanel, CommandIDs.focusResults, CommandIDs.forgetKey])
      palette?.addItem({ command, category: CATEGORY });
    launcher?.add({ command: CommandIDs.openPanel, category: 'Other', rank: 1, args: { isLauncher: true } });
    return dchub;
  }
};

/** The panel's own commands: open it (from the launcher too), forget the browser's key, go to the results. */
function addCoreCommands(
  commands: JupyterFrontEnd['commands'],
  connection: Connection,
  showSection: (section?: string) => void
): void {
  commands.addCommand(CommandIDs.openPanel, {
    label: (args) => (args['isLauncher'] ? 'DC Hub' : 'Open DC Hub panel'),
    caption: 'Show the DC Hub sidebar (from the launcher: and the market briefs)',
    describedBy: {
      args: { type: 'object', properties: { section: { type: 'string' }, isLauncher: { type: 'boolean' } } }
    },
    icon: dchubIcon,
    execute: async (args) => {
      showSection(typeof args['section'] === 'string' ? args['section'] : undefined);
      // The launcher card opens a view straight away: the briefs of your tier.
      if (args['isLauncher'] && commands.hasCommand(CommandIDs.refreshBriefs))
        await commands.execute(CommandIDs.refreshBriefs);
    }
  });
  commands.addCommand(CommandIDs.forgetKey, {
    label: 'Forget DC Hub API key in this browser',
    caption: 'Remove the key kept in browser storage for direct calls',
    describedBy: { args: { type: 'object', properties: {} } },
    isEnabled: () => connection.hasStoredKey,
    execute: () => connection.setApiKey('')
  });
  commands.addCommand(CommandIDs.focusResults, {
    label: 'Go to DC Hub results',
    caption: 'Move the keyboard focus to the DC Hub result view in front: its grid, chart or map',
    describedBy: { args: { type: 'object', properties: {} } },
    execute: () => focusResults()
  });
}
