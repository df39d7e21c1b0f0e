import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { QueuePanel, type QueueQuery } from '../queuePanel';
import { CommandIDs, IDchub } from '../tokens';
import { addPanelCommand, argBool, argList, argText, sectionActions } from './common';

/** The interconnection-queue explorer: its form in the sidebar, the survivors in the main area. */
export const queuePlugin: JupyterFrontEndPlugin<void> = {
  id: '@dchub/jupyterlab:queue',
  description: 'DC Hub interconnection-queue search.',
  autoStart: true,
  requires: [IDchub],
  optional: [ICommandPalette],
  activate: (app: JupyterFrontEnd, dchub: IDchub, palette: ICommandPalette | null) => {
    const { commands } = app;
    const queue = new QueuePanel({
      connection: dchub.connection,
      onSearch: () => void commands.execute(CommandIDs.searchQueue),
      onScoreSite: (site) => void commands.execute(CommandIDs.scoreSite, { ...site }),
      onRank: (candidates) => void commands.execute(CommandIDs.setCandidates, { candidates: candidates as never }),
      showView: (view) => dchub.showView(view),
      actions: sectionActions(commands)
    });
    dchub.addSection(queue, 100);

    addPanelCommand(app, dchub, palette, CommandIDs.searchQueue, 'queue', {
      label: 'Search interconnection queue',
      caption: 'Run the DC Hub queue search with the panel form (arguments fill the form first)',
      describedBy: {
        args: {
          type: 'object',
          properties: {
            iso: { type: ['string', 'array'], description: "ISO or ISOs ('' for all)" },
            min_mw: { type: ['string', 'number'], description: 'Minimum project capacity, MW' },
            max_ttp_months: { type: ['string', 'number'], description: 'Maximum ISO time to power, months' },
            fuel_type: { type: 'string', description: 'Fuel label substrings, comma separated' },
            status: { type: 'string', description: '"active", "all" or a status substring' },
            baseload_only: { type: 'boolean' },
            max_fiber_km: { type: ['string', 'number'] },
            geocoded_only: { type: 'boolean' },
            limit: { type: ['string', 'number'] }
          }
        }
      },
      fill: (args) => {
        const q: Partial<QueueQuery> = {};
        const iso = argList(args['iso']);
        if (iso) q.iso = iso;
        for (const key of ['min_mw', 'max_ttp_months', 'fuel_type', 'status', 'max_fiber_km', 'limit'] as const) {
          const v = argText(args[key]);
          if (v !== undefined) q[key] = v;
        }
        for (const key of ['baseload_only', 'geocoded_only'] as const) {
          const v = argBool(args[key]);
          if (v !== undefined) q[key] = v;
        }
        queue.query = q;
      },
      run: () => queue.search()
    });
  }
};
