/**
 * The pane's status, refreshed after every action: tier, calls left today, the key's account, the
 * cached answers, and the cells whose value does not tell everything.
 */
import { serviceClient } from '../functions/service';
import { cellNotes, type CellNote } from '../shared/cell-notes';
import { readStatus } from '../shared/status';
import { showDerive } from './cache-tab';
import { $, message, say, type Progress } from './pane-dom';

/** `account` also asks the service whose key it is (one call, keyed callers only). */
export async function showStatus(account = false): Promise<void> {
  try {
    const st = await readStatus(await serviceClient(), { account });
    // Behind a team gateway the key is the caller's gateway token, and the tier is the team's plan.
    const key = st.viaGateway ? ' · token set' : st.keyed ? ' · key set' : ' · no key';
    say('tier', `Tier: ${st.tier}${st.confirmed ? '' : ' (assumed until the first answer)'}${key}`);
    say('tierBadge', st.tier);
    const meter = $<Progress>('quota');
    if (Number.isFinite(st.limit)) {
      meter.max = st.limit;
      meter.value = st.remaining;
      meter.validationState =
        st.remaining <= st.limit * 0.2 ? 'error' : st.remaining <= st.limit * 0.5 ? 'warning' : 'success';
    }
    say('quotaText', st.quotaText);
    if (st.account)
      say(
        'account',
        'error' in st.account
          ? `Service: ${st.account.error}`
          : `Service: ${st.account.name}, ${st.account.remaining} calls remaining`,
      );
    say('cacheText', `${st.cacheEntries} cached answer${st.cacheEntries === 1 ? '' : 's'} on this computer.`);
    void showDerive().catch(() => undefined);
    say('warningText', st.warning);
    $('warning').hidden = !st.warning;
    showCellNotes();
  } catch (err) {
    say('tier', message(err));
  }
}

const CELL_NOTE_LABEL: Record<CellNote['kind'], string> = {
  stale: 'from the cache',
  derived: 'answered locally',
  preview: 'a preview',
  warning: 'with a warning',
};
/** The pane lists at most this many cells; the count covers all. */
const CELLS_LISTED = 50;

/**
 * One-cell answers (SITESCORE, DCPI, PRICE, a field of BRIEF, MARKET or PARCEL) that cannot show it
 * themselves: served stale from the cache, answered locally, from a preview. A table says it in
 * its closing rows instead.
 */
function showCellNotes(): void {
  const notes = cellNotes();
  $('cellNotesSection').hidden = notes.length === 0;
  const counts = (Object.keys(CELL_NOTE_LABEL) as CellNote['kind'][])
    .map((k) => [k, notes.filter((n) => n.kind === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${CELL_NOTE_LABEL[k]}`);
  say(
    'cellNotesText',
    notes.length
      ? `${notes.length} cell${notes.length === 1 ? '' : 's'} whose value does not tell everything: ${counts.join(', ')}. Refresh now (Cache) asks again.`
      : '',
  );
  $('cellNotes').replaceChildren(
    ...notes.slice(0, CELLS_LISTED).map((n) => {
      const li = document.createElement('li');
      li.dataset.kind = n.kind;
      const cell = document.createElement('b');
      cell.textContent = n.cell;
      li.append(cell, ` ${n.formula}: ${n.text}`); // text nodes only: nothing from an answer is markup
      return li;
    }),
  );
}
