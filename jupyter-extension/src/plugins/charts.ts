import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { IRenderMimeRegistry } from '@jupyterlab/rendermime';
import { ChartRenderer } from '../chartRenderer';
import type { ShowMode } from '../dom';
import { CATEGORY, CommandIDs, IDchub, IDchubCharts } from '../tokens';
import { argText } from './common';

const MODES: readonly ShowMode[] = ['table', 'chart', 'map'];

/**
 * Charts and maps in the views (queue, briefs, DCPI, ranking, site score): core's Vega-Lite specs
 * drawn by JupyterLab's own renderer through the rendermime registry (a core token: nothing of
 * Vega in our bundle). The views take the renderer as an optional token; without it they show
 * their tables only.
 */
export const chartsPlugin: JupyterFrontEndPlugin<IDchubCharts> = {
  id: '@dchub/jupyterlab:charts',
  description: "DC Hub charts and maps, drawn by JupyterLab's Vega-Lite renderer.",
  autoStart: true,
  provides: IDchubCharts,
  requires: [IDchub, IRenderMimeRegistry],
  optional: [ICommandPalette],
  activate: (
    app: JupyterFrontEnd,
    dchub: IDchub,
    rendermime: IRenderMimeRegistry,
    palette: ICommandPalette | null
  ): IDchubCharts => {
    const charts = new ChartRenderer(rendermime);
    app.commands.addCommand(CommandIDs.showAs, {
      label: (args) => {
        const mode = argText(args['mode']) ?? 'chart';
        return `Show DC Hub ${argText(args['section']) ?? 'view'} as ${mode === 'table' ? 'a table' : `a ${mode}`}`;
      },
      caption:
        'Switch a DC Hub view between its table, its chart and its map (section: queue, briefs, ranking, site-score, explore:<resource>)',
      describedBy: {
        args: {
          type: 'object',
          properties: {
            section: { type: 'string' },
            mode: { type: 'string', enum: [...MODES] },
            chart: { type: 'string', description: 'the chart by name (queue_mix, queue_time_to_power, leaderboard, …)' }
          },
          required: ['section']
        }
      },
      execute: async (args) => {
        const section = argText(args['section']) ?? '';
        const mode = MODES.find((m) => m === args['mode']) ?? 'chart';
        const view = dchub.section(section)?.charts;
        if (!view) throw new Error(`DC Hub: the ${section || 'unnamed'} view has no charts`);
        await view.show(mode, argText(args['chart']));
        return { mode: view.mode, chart: view.chart };
      }
    });
    palette?.addItem({ command: CommandIDs.showAs, category: CATEGORY, args: { section: 'queue', mode: 'map' } });
    palette?.addItem({ command: CommandIDs.showAs, category: CATEGORY, args: { section: 'queue', mode: 'chart' } });
    return charts;
  }
};
