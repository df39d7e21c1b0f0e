import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { SitePanel } from '../sitePanel';
import { CommandIDs, IDchub, IDchubCharts } from '../tokens';
import { addPanelCommand, argText, sectionActions } from './common';

/** Site score: a lat/lon/capacity form (filled from a queue row's hand-off) and a readable card. */
export const sitePlugin: JupyterFrontEndPlugin<void> = {
  id: '@dchub/jupyterlab:site',
  description: 'DC Hub site scoring.',
  autoStart: true,
  requires: [IDchub],
  optional: [ICommandPalette, IDchubCharts],
  activate: (app: JupyterFrontEnd, dchub: IDchub, palette: ICommandPalette | null, charts: IDchubCharts | null) => {
    const { commands } = app;
    const site = new SitePanel({
      connection: dchub.connection,
      onScore: () => void commands.execute(CommandIDs.scoreSite),
      actions: sectionActions(commands),
      charts
    });
    dchub.addSection(site, 300);

    addPanelCommand(app, dchub, palette, CommandIDs.scoreSite, 'site-score', {
      label: 'Score a site',
      caption:
        'Score the location in the Site score form (arguments lat, lon, capacity_mw fill it first; label names where it came from)',
      describedBy: {
        args: {
          type: 'object',
          properties: {
            lat: { type: ['string', 'number'] },
            lon: { type: ['string', 'number'] },
            capacity_mw: { type: ['string', 'number'] },
            label: { type: 'string' }
          }
        }
      },
      fill: (args) => {
        const lat = args['lat'];
        const lon = args['lon'];
        if (typeof lat === 'number' && typeof lon === 'number') {
          const cap = args['capacity_mw'];
          site.setHandoff({
            lat,
            lon,
            capacity_mw: typeof cap === 'number' ? cap : undefined,
            label: argText(args['label'])
          });
        } else site.query = { lat: argText(lat), lon: argText(lon), capacity_mw: argText(args['capacity_mw']) };
      },
      run: () => site.score()
    });
  }
};
