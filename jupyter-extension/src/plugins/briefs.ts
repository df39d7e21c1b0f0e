import { BriefsPanel } from '../briefsPanel';
import { CommandIDs } from '../tokens';
import { addPanelCommand, sectionPlugin } from './common';

/** Market briefs: loaded when first shown, refreshed through every page of /diff. */
export const briefsPlugin = sectionPlugin(
  'briefs',
  'DC Hub market briefs with refresh through /diff.',
  ({ app, commands, dchub, palette, base }) => {
    const briefs = new BriefsPanel({
      ...base,
      onRefresh: () => void commands.execute(CommandIDs.refreshBriefs)
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
      args: {},
      run: () => briefs.refresh()
    });
  }
);
