import type { Cell } from '@dchub/core';
import { RankPanel } from '../rankPanel';
import { CommandIDs } from '../tokens';
import { addPanelCommand, sectionPlugin } from './common';

/** Ranking of candidate sites on weighted objectives; the ranked grid opens in the main area. */
export const rankingPlugin = sectionPlugin(
  'ranking',
  'DC Hub site ranking.',
  ({ app, commands, dchub, palette, base }) => {
    const rank = new RankPanel({
      ...base,
      onRank: () => void commands.execute(CommandIDs.rankSites)
    });
    dchub.addSection(rank, 400);

    commands.addCommand(CommandIDs.setCandidates, {
      label: 'Set DC Hub ranking candidates',
      caption: 'Hand candidates (objects with id, lat, lon and metrics) to the Rank tab',
      describedBy: {
        args: { type: 'object', properties: { candidates: { type: 'array' }, source: { type: 'string' } } }
      },
      execute: (args) => {
        const candidates = Array.isArray(args['candidates']) ? (args['candidates'] as Array<Record<string, Cell>>) : [];
        rank.setCandidates(candidates, typeof args['source'] === 'string' ? args['source'] : undefined);
        dchub.showSection('ranking');
      }
    });
    addPanelCommand(app, dchub, palette, CommandIDs.rankSites, 'ranking', {
      label: 'Rank candidate sites',
      caption: 'Rank the candidates handed over from the queue selection with the objectives in the Rank tab',
      args: {},
      run: () => rank.rank()
    });
  }
);
