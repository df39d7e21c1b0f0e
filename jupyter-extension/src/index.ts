import {
  ILayoutRestorer,
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette, IThemeManager, Notification } from '@jupyterlab/apputils';
import { PathExt } from '@jupyterlab/coreutils';
import { IDefaultFileBrowser } from '@jupyterlab/filebrowser';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { Connection, DEFAULT_CONFIG, type ConnectionPreference, type PanelConfig } from './connection';
import { exportTableCsv, insertLoaderCells, type ExportResult } from './exporter';
import { dchubIcon } from './icons';
import type { QueueQuery } from './queuePanel';
import { DchubSidebar } from './sidebar';

export { TableModel, QueueModel } from './tableModel';
export { QueuePanel, type QueueQuery, type SiteHandoff } from './queuePanel';
export { BriefsPanel, type BriefsRefreshResult } from './briefsPanel';
export { SitePanel } from './sitePanel';
export { RankPanel } from './rankPanel';
export { McpPanel } from './mcpPanel';
export { DchubSidebar } from './sidebar';
export { Connection, DEFAULT_CONFIG, type PanelConfig } from './connection';
export { dchubIcon } from './icons';

/** Plugin id; its settings schema is `schema/plugin.json`. */
export const PLUGIN_ID = '@dchub/jupyterlab:plugin';

export namespace CommandIDs {
  export const openPanel = 'dchub:open-panel';
  export const searchQueue = 'dchub:search-queue';
  export const refreshBriefs = 'dchub:refresh-briefs';
  export const scoreSite = 'dchub:score-site';
  export const rankSites = 'dchub:rank-sites';
  export const callTool = 'dchub:call-tool';
  export const exportCsv = 'dchub:export-csv';
  export const insertNotebook = 'dchub:insert-notebook';
  export const forgetKey = 'dchub:forget-api-key';
}

const CATEGORY = 'DC Hub';
const SECTIONS = ['queue', 'briefs', 'site-score', 'ranking', 'mcp'];

/** Reads the plugin's settings, falling back to the schema defaults on odd values. */
function readConfig(settings: ISettingRegistry.ISettings): PanelConfig {
  const baseUrl = settings.get('baseUrl').composite;
  const limit = settings.get('defaultLimit').composite;
  const connection = settings.get('connection').composite;
  const refresh = settings.get('briefsRefreshMinutes').composite;
  return {
    baseUrl: typeof baseUrl === 'string' && baseUrl.trim() ? baseUrl.trim() : DEFAULT_CONFIG.baseUrl,
    limit: typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= 1000 ? limit : DEFAULT_CONFIG.limit,
    connection: connection === 'proxy' || connection === 'direct' || connection === 'auto' ? (connection as ConnectionPreference) : DEFAULT_CONFIG.connection,
    briefsRefreshMinutes: typeof refresh === 'number' && refresh >= 0 && refresh <= 1440 ? refresh : DEFAULT_CONFIG.briefsRefreshMinutes
  };
}

/** What `addCommand` takes. */
type CommandOptions = Parameters<JupyterFrontEnd['commands']['addCommand']>[1];
/** The arguments a command is executed with. */
type CommandArgs = Parameters<CommandOptions['execute']>[0];

/** Shows a failed command's error as a notification; gives the command's null result. */
function notifyError(err: unknown): null {
  Notification.error(err instanceof Error ? err.message : String(err), { autoClose: 6000 });
  return null;
}

/** A command argument as form text ('' when absent). */
function argText(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function argList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return value.split(/[,;]/).map((s) => s.trim()).filter(Boolean);
  return undefined;
}

function argBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return undefined;
}

/**
 * The DC Hub sidebar (queue explorer, market briefs, site score), its commands, the CSV export
 * and notebook insertion, and its settings.
 */
const plugin: JupyterFrontEndPlugin<void> = {
  id: PLUGIN_ID,
  description: 'DC Hub data-center market intelligence: queue search, market briefs and site scores in a sidebar, exported to CSV and notebooks.',
  autoStart: true,
  optional: [ISettingRegistry, ICommandPalette, ILayoutRestorer, IThemeManager, INotebookTracker, IDefaultFileBrowser],
  activate: (
    app: JupyterFrontEnd,
    settingRegistry: ISettingRegistry | null,
    palette: ICommandPalette | null,
    restorer: ILayoutRestorer | null,
    themeManager: IThemeManager | null,
    notebooks: INotebookTracker | null,
    fileBrowser: IDefaultFileBrowser | null
  ) => {
    const { commands, shell } = app;
    const connection = new Connection();

    const sidebar = new DchubSidebar({
      connection,
      onSearch: () => void commands.execute(CommandIDs.searchQueue),
      onRefreshBriefs: () => void commands.execute(CommandIDs.refreshBriefs),
      onScoreSite: () => void commands.execute(CommandIDs.scoreSite),
      onRank: () => void commands.execute(CommandIDs.rankSites),
      onCallTool: () => void commands.execute(CommandIDs.callTool),
      onLoadTools: () => void settingsLoaded.then(() => sidebar.tools.loadTools()),
      onHandoff: (site) => {
        sidebar.site.setHandoff(site);
        sidebar.showSection('site-score');
        void commands.execute(CommandIDs.scoreSite);
      },
      actions: {
        exportCsv: (kind) => void commands.execute(CommandIDs.exportCsv, { section: kind }),
        insertInNotebook: (kind) => void commands.execute(CommandIDs.insertNotebook, { section: kind })
      }
    });
    sidebar.title.icon = dchubIcon;
    shell.add(sidebar, 'left', { rank: 700 });
    restorer?.add(sidebar, sidebar.id);

    // A different key or service means different briefs: load them again when next shown.
    let lastState = '';
    connection.onChange((state) => {
      const id = `${state.mode}|${state.serviceUrl}|${state.hasKey}`;
      if (lastState && id !== lastState && sidebar.briefs.loaded) {
        sidebar.briefs.reset();
        if (sidebar.briefs.isVisible) void commands.execute(CommandIDs.refreshBriefs);
      }
      lastState = id;
    });

    // Calls wait for the user's settings so the first one goes to the configured service.
    const settingsLoaded: Promise<void> = settingRegistry
      ? settingRegistry
          .load(PLUGIN_ID)
          .then((settings) => {
            const apply = () => {
              const config = readConfig(settings);
              connection.configure(config);
              sidebar.briefs.setAutoRefresh(config.briefsRefreshMinutes);
            };
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

    const show = (section?: string) => {
      if (section) sidebar.showSection(section);
      if (!sidebar.isVisible) shell.activateById(sidebar.id);
    };

    /** The folder exports go to: the notebook's for insertion, else the file browser's. */
    const exportDir = (): string => fileBrowser?.model.path ?? '';

    /** A section and its table as shown; throws when there is none yet to export or insert. */
    const sectionTable = (kind: string, verb: 'export' | 'insert') => {
      const source = sidebar.section(kind);
      if (!source) throw new Error(`DC Hub: no section "${kind}"`);
      const table = source.exportTable();
      if (!table) throw new Error(`DC Hub: nothing to ${verb} yet in ${source.exportTitle}; load some data first.`);
      return { source, table };
    };

    const exportSection = async (kind: string, dir: string): Promise<ExportResult> => {
      const { source, table } = sectionTable(kind, 'export');
      return exportTableCsv(app.serviceManager.contents, dir, source, table);
    };

    const sectionArg = (args: Readonly<Record<string, unknown>>): string => {
      const s = args['section'];
      return typeof s === 'string' && SECTIONS.includes(s) ? s : sidebar.currentSection.kind;
    };

    /**
     * Registers a command that runs a panel's request: `fill` puts the arguments into the form,
     * then the section is shown, the settings awaited, `run` called and the quota line updated.
     */
    const addPanelCommand = (
      id: string,
      section: string,
      options: Pick<CommandOptions, 'label' | 'caption' | 'describedBy'> & {
        fill?: (args: CommandArgs) => void;
        run: (args: CommandArgs) => Promise<unknown>;
      }
    ): void => {
      const { fill, run, ...rest } = options;
      commands.addCommand(id, {
        ...rest,
        execute: async (args) => {
          fill?.(args);
          show(section);
          await settingsLoaded;
          const result = await run(args);
          void sidebar.updateQuota();
          return result;
        }
      });
    };

    commands.addCommand(CommandIDs.openPanel, {
      label: 'Open DC Hub panel',
      caption: 'Show the DC Hub sidebar',
      icon: dchubIcon,
      execute: () => show()
    });

    addPanelCommand(CommandIDs.searchQueue, 'queue', {
      label: 'Search interconnection queue',
      caption: 'Run the DC Hub queue search with the panel form (arguments fill the form first)',
      describedBy: {
        args: {
          type: 'object',
          properties: {
            iso: { type: ['string', 'array'], description: "ISO or ISOs ('' for all)" },
            min_mw: { type: ['string', 'number'], description: 'Minimum project capacity, MW' },
            max_ttp_months: { type: ['string', 'number'], description: 'Maximum ISO time to power, months' },
            fuel_type: { type: 'string', description: 'Fuel label substrings, comma separated' },
            status: { type: 'string', description: '"active", "all" or a status substring' },
            baseload_only: { type: 'boolean' },
            max_fiber_km: { type: ['string', 'number'] },
            geocoded_only: { type: 'boolean' },
            limit: { type: ['string', 'number'] }
          }
        }
      },
      fill: (args) => {
        const q: Partial<QueueQuery> = {};
        const iso = argList(args['iso']);
        if (iso) q.iso = iso;
        for (const key of ['min_mw', 'max_ttp_months', 'fuel_type', 'status', 'max_fiber_km', 'limit'] as const) {
          const v = argText(args[key]);
          if (v !== undefined) q[key] = v;
        }
        for (const key of ['baseload_only', 'geocoded_only'] as const) {
          const v = argBool(args[key]);
          if (v !== undefined) q[key] = v;
        }
        sidebar.queue.query = q;
      },
      run: () => sidebar.queue.search()
    });

    addPanelCommand(CommandIDs.refreshBriefs, 'briefs', {
      label: 'Refresh market briefs',
      caption: 'Load the market briefs, or merge the ones recomputed since the last refresh',
      run: () => sidebar.briefs.refresh()
    });

    addPanelCommand(CommandIDs.scoreSite, 'site-score', {
      label: 'Score a site',
      caption: 'Score the location in the Site score form (arguments lat, lon, capacity_mw fill it first)',
      describedBy: {
        args: {
          type: 'object',
          properties: {
            lat: { type: ['string', 'number'] },
            lon: { type: ['string', 'number'] },
            capacity_mw: { type: ['string', 'number'] }
          }
        }
      },
      fill: (args) => {
        sidebar.site.query = { lat: argText(args['lat']), lon: argText(args['lon']), capacity_mw: argText(args['capacity_mw']) };
      },
      run: () => sidebar.site.score()
    });

    addPanelCommand(CommandIDs.rankSites, 'ranking', {
      label: 'Rank candidate sites',
      caption: 'Rank the candidates handed over from the queue selection with the objectives in the Rank tab',
      run: () => sidebar.rank.rank()
    });

    addPanelCommand(CommandIDs.callTool, 'mcp', {
      label: 'Call a DC Hub MCP tool',
      caption: 'Call the tool chosen in the Tools tab (arguments: tool, and args to fill its form first)',
      describedBy: {
        args: {
          type: 'object',
          properties: { tool: { type: 'string' }, args: { type: 'object', description: 'Form values by argument name' } }
        }
      },
      run: async (args) => {
        const tool = args['tool'];
        if (typeof tool === 'string') {
          const values = (args['args'] ?? {}) as Record<string, unknown>;
          const form: Record<string, string | boolean> = {};
          for (const [k, v] of Object.entries(values)) form[k] = typeof v === 'boolean' ? v : Array.isArray(v) ? v.join(',') : String(v);
          await sidebar.tools.fill(tool, form);
        }
        return sidebar.tools.call();
      }
    });

    commands.addCommand(CommandIDs.exportCsv, {
      label: (args) => (args['section'] ? `Export DC Hub ${String(args['section'])} as CSV` : 'Export DC Hub table as CSV'),
      caption: 'Save the current DC Hub table as CSV in the file browser folder, with its citation beside it',
      describedBy: {
        args: { type: 'object', properties: { section: { type: 'string', enum: SECTIONS }, dir: { type: 'string' } } }
      },
      execute: async (args) => {
        const kind = sectionArg(args);
        try {
          const dir = typeof args['dir'] === 'string' ? args['dir'] : exportDir();
          const result = await exportSection(kind, dir);
          Notification.success(`Saved ${result.rows} rows to ${result.path} (citation in ${PathExt.basename(result.citationPath)})`, {
            autoClose: 4000
          });
          return result;
        } catch (err) {
          return notifyError(err);
        }
      }
    });

    commands.addCommand(CommandIDs.insertNotebook, {
      label: (args) => (args['section'] ? `Insert DC Hub ${String(args['section'])} in notebook` : 'Insert DC Hub table in notebook'),
      caption: 'Export the current DC Hub table next to the active notebook and add cells that load it with pandas',
      describedBy: { args: { type: 'object', properties: { section: { type: 'string', enum: SECTIONS } } } },
      isEnabled: () => !!notebooks?.currentWidget,
      execute: async (args) => {
        const kind = sectionArg(args);
        const panel = notebooks?.currentWidget;
        try {
          if (!panel) throw new Error('DC Hub: open a notebook first; the cells go into the active notebook.');
          const { source, table } = sectionTable(kind, 'insert');
          const exported = await exportTableCsv(app.serviceManager.contents, PathExt.dirname(panel.context.path), source, table);
          const cells = insertLoaderCells(panel, exported, source, table);
          shell.activateById(panel.id);
          return { ...exported, ...cells };
        } catch (err) {
          return notifyError(err);
        }
      }
    });

    commands.addCommand(CommandIDs.forgetKey, {
      label: 'Forget DC Hub API key in this browser',
      caption: 'Remove the key kept in browser storage for direct calls',
      isEnabled: () => connection.hasStoredKey,
      execute: () => connection.setApiKey('')
    });

    // Every command, in the order CommandIDs declares them.
    for (const command of Object.values(CommandIDs)) {
      palette?.addItem({ command, category: CATEGORY });
    }
  }
};

export default [plugin];
