/** The Briefs tab's brief sheets: insert one, refresh one, with the notes on what the answer left out. */
import { MAX_WARNINGS, moreWarningsText, type PagesProgress } from '@dchub/core';
import { serviceClient } from '../functions/service';
import { excelRun, insertBriefs, refreshBriefs, type AnswerNotes } from './actions';
import { say, type Action } from './pane-dom';

/** A status line that follows a read of several pages (core's brief readers). */
const pageProgress = (statusId: string) => (p: PagesProgress) => {
  if (p.pagesTotal > 1)
    say(statusId, `Working… page ${p.pagesDone} of ${p.pagesTotal} (${p.rowsDone} of ${p.rowsTotal} briefs)`);
};

/** The brief sheet's status, with what the reader left out, whether the answer was stale, and formats not laid. */
const briefNotes = (n: AnswerNotes & { formats?: string; charts?: number }): string =>
  [
    n.charts ? ` ${n.charts} chart${n.charts === 1 ? '' : 's'} brought up to date.` : '',
    n.formats ? ` ${n.formats}` : '',
    n.served ? ` ${n.served}.` : '',
    ...n.explanations.map((e) => ` ${e.replace(/\.$/, '')}.`),
    ...n.warnings.slice(0, MAX_WARNINGS).map((w) => ` ${w}.`),
    n.warnings.length > MAX_WARNINGS ? ` ${moreWarningsText(n.warnings.length - MAX_WARNINGS)}.` : '',
  ].join('');

/** Wires the tab's Insert and Refresh buttons. */
export function initBriefsTab(action: Action): void {
  action('insertBriefs', 'briefStatus', async () => {
    const r = await insertBriefs(await serviceClient(), excelRun, pageProgress('briefStatus'));
    return `Inserted ${r.rows} briefs on "${r.sheet}" (as of ${r.asOf}).${briefNotes(r)}`;
  });
  action('refreshBriefs', 'briefStatus', async () => {
    const r = await refreshBriefs(await serviceClient(), excelRun, pageProgress('briefStatus'));
    const parts = [`${r.changed.length} changed`, `${r.added.length} added`, `${r.unchanged} unchanged`];
    return `${r.table}: ${parts.join(', ')}; as of ${r.asOf}.${briefNotes(r)}`;
  });
}
