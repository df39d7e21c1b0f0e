import { QUEUE_PREDICATES, QueueFilters } from '@dchub/core';
import { QUEUE_CONTROLS } from '../queueForm';
import { QueuePanel } from '../queuePanel';
import { CommandIDs } from '../tokens';
import { addPanelCommand, sectionPlugin, argBool, argList, argText } from './common';

/** The interconnection-queue explorer: its form in the sidebar, the survivors in the main area. */
export const queuePlugin = sectionPlugin(
  'queue',
  'DC Hub interconnection-queue search.',
  ({ app, commands, dchub, palette, base }) => {
    const queue = new QueuePanel({
      ...base,
      onSearch: () => void commands.execute(CommandIDs.searchQueue),
      onScoreSite: (site) => void commands.execute(CommandIDs.scoreSite, { ...site }),
      onRank: (candidates) => void commands.execute(CommandIDs.setCandidates, { candidates: candidates as never })
    });
    dchub.addSection(queue, 100);

    addPanelCommand(app, dchub, palette, CommandIDs.searchQueue, 'queue', {
      label: 'Search interconnection queue',
      caption: 'Run the DC Hub queue search with the panel form (arguments fill the form first)',
      // One argument per predicate of core's queue filters, described as core describes it.
      args: Object.fromEntries(
        QUEUE_PREDICATES.map((p) => {
          const kind = QUEUE_CONTROLS[p].kind;
          const type =
            kind === 'isos'
              ? ['string', 'array']
              : kind === 'check'
                ? 'boolean'
                : kind === 'number'
                  ? ['string', 'number']
                  : 'string';
          return [p, { type, description: QueueFilters.shape[p].description ?? QUEUE_CONTROLS[p].label }];
        })
      ),
      fill: (args) => {
        const q: Record<string, unknown> = {};
        for (const p of QUEUE_PREDICATES) {
          const kind = QUEUE_CONTROLS[p].kind;
          const v = kind === 'isos' ? argList(args[p]) : kind === 'check' ? argBool(args[p]) : argText(args[p]);
          if (v !== undefined) q[p] = v;
        }
        queue.query = q;
      },
      run: () => queue.search()
    });
  }
);
