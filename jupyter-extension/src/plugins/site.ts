import { SitePanel } from '../sitePanel';
import { CommandIDs } from '../tokens';
import { addPanelCommand, sectionPlugin, argText } from './common';

/** Site score: a lat/lon/capacity form (filled from a queue row's hand-off) and a readable card. */
export const sitePlugin = sectionPlugin('site', 'DC Hub site scoring.', ({ app, commands, dchub, palette, base }) => {
  const site = new SitePanel({
    ...base,
    onScore: () => void commands.execute(CommandIDs.scoreSite)
  });
  dchub.addSection(site, 300);

  addPanelCommand(app, dchub, palette, CommandIDs.scoreSite, 'site-score', {
    label: 'Score a site',
    caption:
      'Score the location in the Site score form (arguments lat, lon, capacity_mw fill it first; label names where it came from)',
    args: {
      lat: { type: ['string', 'number'] },
      lon: { type: ['string', 'number'] },
      capacity_mw: { type: ['string', 'number'] },
      label: { type: 'string' }
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
});
