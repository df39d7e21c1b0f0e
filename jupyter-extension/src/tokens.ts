import { Token } from '@lumino/coreutils';
import type { Widget } from '@lumino/widgets';
import type { ChartRenderer } from './chartRenderer';
import type { Connection } from './connection';
import type { TableSource } from './dom';
import type { DchubSidebar } from './sidebar';
import type { ResultView } from './views';

/** What the core plugin provides to the feature plugins (queue, briefs, site, ranking, tools, export, explore). */
export interface IDchub {
  /** The connection (relay or direct) and its client. */
  readonly connection: Connection;
  /** The sidebar: forms and the launcher; features add their tab. */
  readonly sidebar: DchubSidebar;
  /** Resolves once the user's settings are applied (calls wait for it). */
  readonly settingsLoaded: Promise<void>;
  /** Shows a result view in the main area. */
  showView(view: ResultView, activate?: boolean): void;
  /** Adds a feature's sidebar tab (ordered by rank) and its exportable table source. */
  addSection(section: Widget & TableSource & { updateTheme?: () => void }, rank: number): void;
  /** The table source registered under `kind` (queue, briefs, site-score, ranking, mcp, explore). */
  section(kind: string): (TableSource & Widget) | undefined;
  /** Shows a section's tab in the sidebar (and the sidebar itself). */
  showSection(kind?: string): void;
  /** Re-reads the calls left today into the sidebar header. */
  updateQuota(): Promise<void>;
}

export const IDchub = new Token<IDchub>(
  '@dchub/jupyterlab:IDchub',
  'The DC Hub connection, sidebar and main-area views.'
);

/** Draws the views' charts with JupyterLab's own Vega-Lite renderer (the charts plugin provides it). */
export type IDchubCharts = Pick<ChartRenderer, 'available' | 'render'>;

export const IDchubCharts = new Token<IDchubCharts>(
  '@dchub/jupyterlab:IDchubCharts',
  "Draws DC Hub charts with JupyterLab's Vega-Lite renderer."
);

/** Command ids, shared by the plugins that register and the ones that call them. */
export namespace CommandIDs {
  export const openPanel = 'dchub:open-panel';
  export const searchQueue = 'dchub:search-queue';
  export const refreshBriefs = 'dchub:refresh-briefs';
  export const scoreSite = 'dchub:score-site';
  export const rankSites = 'dchub:rank-sites';
  export const setCandidates = 'dchub:set-rank-candidates';
  export const callTool = 'dchub:call-tool';
  export const openResource = 'dchub:open-resource';
  export const exportCsv = 'dchub:export-csv';
  export const insertNotebook = 'dchub:insert-notebook';
  export const insertCsvNotebook = 'dchub:insert-csv-notebook';
  export const forgetKey = 'dchub:forget-api-key';
  export const showAs = 'dchub:show-as';
  export const focusResults = 'dchub:focus-results';
}

export const CATEGORY = 'DC Hub';
