import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { BriefsPanel } from '../briefsPanel';
import { CommandIDs, IDchub, IDchubCharts } from '../tokens';
import { addPanelCommand, sectionActions } from './common';

/** Market briefs: loaded when first shown, refreshed through every page of /diff. */
export const briefsPlugin: JupyterFrontEndPlugin<void> = {
  id: '@dchub/jupyterlab:briefs',
  description: 'DC Hub market briefs with refresh through /diff.',
  autoStart: true,
  requires: [IDchub],
  optional: [ICommandPalette, IDchubCharts],
  activate: (app: JupyterFrontEnd, dchub: IDchub, palette: ICommandPalette | null, charts: IDchubCharts | null) => {
    const { commands } = app;
    const briefs = new BriefsPanel({
      connection: dchub.connection,
      onRefresh: () => void commands.execute(CommandIDs.refreshBriefs),
      showView: (view) => dchub.showView(view),
      actions: sectionActions(commands),
      charts
    });
    // Briefs load the first time their tab is shown.
    Object.assign(briefs, { onShown: () => !briefs.loaded && void commands.execute(CommandIDs.refreshBriefs) });
    dchub.addSection(briefs, 200);
    dchub.sidebar.addLauncherItem({
      label: 'Briefs',
      caption: 'Open the market briefs of your tier',
      run: () => void commands.execute(CommandIDs.refreshBriefs)
    });

    // A different key or service means different briefs: load them again when next shown.
    let lastState = '';
    dchub.connection.onChange((state) => {
      briefs.setAutoRefresh(dchub.connection.config.briefsRefreshMinutes);
      const id = `${state.mode}|${state.serviceUrl}|${state.hasKey}`;
      if (lastState && id !== lastState && (briefs.loaded || briefs.busy)) {
        briefs.reset();
        if (briefs.isVisible) void commands.execute(CommandIDs.refreshBriefs);
      }
      lastState = id;
    });

    addPanelCommand(app, dchub, palette, CommandIDs.refreshBriefs, 'briefs', {
      label: 'Refresh market briefs',
      caption: 'Load the market briefs, or merge the ones recomputed since the last refresh',
      describedBy: { args: { type: 'object', properties: {} } },
      run: () => briefs.refresh()
    });
  }
};
