import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import type { Cell } from '@dchub/core';
import { RankPanel } from '../rankPanel';
import { CommandIDs, IDchub, IDchubCharts } from '../tokens';
import { addPanelCommand, sectionActions } from './common';

/** Ranking of candidate sites on weighted objectives; the ranked grid opens in the main area. */
export const rankingPlugin: JupyterFrontEndPlugin<void> = {
  id: '@dchub/jupyterlab:ranking',
  description: 'DC Hub site ranking.',
  autoStart: true,
  requires: [IDchub],
  optional: [ICommandPalette, IDchubCharts],
  activate: (app: JupyterFrontEnd, dchub: IDchub, palette: ICommandPalette | null, charts: IDchubCharts | null) => {
    const { commands } = app;
    const rank = new RankPanel({
      connection: dchub.connection,
      onRank: () => void commands.execute(CommandIDs.rankSites),
      showView: (view) => dchub.showView(view),
      actions: sectionActions(commands),
      charts
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
      describedBy: { args: { type: 'object', properties: {} } },
      run: () => rank.rank()
    });
  }
};
