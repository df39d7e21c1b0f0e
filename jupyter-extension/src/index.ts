/**
 * DC Hub for JupyterLab: one plugin per feature, as in JupyterLab's extension examples. The core
 * plugin provides the connection, the sidebar and the main-area views (`IDchub`); the others add
 * a sidebar tab and their commands.
 */
import { briefsPlugin } from './plugins/briefs';
import { chartsPlugin } from './plugins/charts';
import { corePlugin, PLUGIN_ID } from './plugins/core';
import { explorePlugin } from './plugins/explore';
import { exportPlugin } from './plugins/export';
import { queuePlugin } from './plugins/queue';
import { rankingPlugin } from './plugins/ranking';
import { sitePlugin } from './plugins/site';
import { toolsPlugin } from './plugins/tools';

export { PLUGIN_ID };
export { CommandIDs, IDchub, IDchubCharts } from './tokens';
export { TableModel, QueueModel } from './tableModel';
export { Connection, DEFAULT_CONFIG, type PanelConfig } from './connection';

export default [
  corePlugin,
  chartsPlugin,
  queuePlugin,
  briefsPlugin,
  sitePlugin,
  rankingPlugin,
  toolsPlugin,
  explorePlugin,
  exportPlugin
];
