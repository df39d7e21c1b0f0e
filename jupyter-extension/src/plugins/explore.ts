import { ExplorePanel } from '../explorePanel';
import { CommandIDs } from '../tokens';
import { addPanelCommand, sectionPlugin } from './common';

/**
 * Every other resource: grid regions (with provenance), the DCPI leaderboard and market scores,
 * receipts, parcel analysis (a workspace GeoJSON file or pasted), markets, facilities, news, deals,
 * pipeline, fuel mix and prices, each in its own main-area view.
 */
export const explorePlugin = sectionPlugin(
  'explore',
  'DC Hub resources beyond the queue: grid regions, DCPI, receipts, parcels, markets, facilities, news, deals, pipeline.',
  ({ app, commands, dchub, palette, base }) => {
    const explore = new ExplorePanel({
      ...base,
      onOpen: () => void commands.execute(CommandIDs.openResource),
      addSource: (source) => dchub.sidebar.addSource(source),
      readFile: async (path) => {
        const model = await app.serviceManager.contents.get(path.replace(/^\/+/, ''), {
          content: true,
          type: 'file',
          format: 'text'
        });
        return typeof model.content === 'string' ? model.content : JSON.stringify(model.content);
      }
    });
    dchub.addSection(explore, 600);
    const open = (resource: string, label: string, caption: string) =>
      dchub.sidebar.addLauncherItem({
        label,
        caption,
        run: () => void commands.execute(CommandIDs.openResource, { resource })
      });
    open('dcpi-leaderboard', 'DCPI', 'Open the DC Hub Power Index leaderboard');
    open('grid-regions', 'Grid regions', 'Open the grid regions with their provenance');
    open('news', 'News', 'Open the latest industry news');

    addPanelCommand(app, dchub, palette, CommandIDs.openResource, 'explore', {
      label: 'Open DC Hub data',
      caption: 'Open a DC Hub resource in the main area (arguments: resource, and values to fill its form)',
      args: {
        resource: {
          type: 'string',
          description:
            'grid-regions, dcpi-leaderboard, dcpi-scores, dcpi-market, receipts, parcel, markets, market, facilities, news, deals, pipeline, fuel-mix, prices'
        },
        values: { type: 'object' }
      },
      fill: (args) => {
        const resource = args['resource'];
        if (typeof resource !== 'string') return;
        const values = (args['values'] ?? {}) as Record<string, unknown>;
        explore.fill(
          resource,
          Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
        );
      },
      run: () => explore.open()
    });
  }
);
