/** The Briefs tab's Automatic refresh: the workbook's opt-in, its interval, and the schedule it runs. */
import { serviceClient } from '../functions/service';
import { excelRun } from './actions';
import {
  checkBriefTables,
  readAutoRefresh,
  scheduleAutoRefresh,
  setAutoRefresh,
  type AutoRefreshSettings,
  type CheckResult,
} from './autorefresh';
import { $, input, message, say, type Control } from './pane-dom';
import { showStatus } from './status-view';

const autoText = (r: CheckResult | Error): string => {
  if (r instanceof Error) return `Automatic refresh failed: ${r.message}`;
  const at = r.at.slice(11, 16);
  const done = r.refreshed.map(
    (t) =>
      `${t.table}: ${t.changed} changed, ${t.added} added${t.warnings.length ? ` (${t.warnings.slice(0, 3).join('; ')})` : ''}`,
  );
  if (done.length) return `Refreshed at ${at} UTC: ${done.join('; ')}.`;
  if (r.skipped) return `Checked at ${at} UTC: ${r.skipped}.`;
  return `Checked at ${at} UTC: nothing can have changed since the last refresh (no call spent).`;
};

let stopAuto: (() => void) | undefined;

/** Starts (or stops) the schedule for this workbook's setting. */
function applyAutoRefresh(s: AutoRefreshSettings): void {
  stopAuto?.();
  stopAuto = undefined;
  if (!s.enabled) return;
  stopAuto = scheduleAutoRefresh(
    s,
    async () => checkBriefTables(await serviceClient(), excelRun),
    (r) => {
      say('autoStatus', autoText(r));
      void showStatus();
    },
  );
}

async function changeAutoRefresh(): Promise<string> {
  const minutes = Number(input('autoEvery').value);
  const next = {
    enabled: $<Control>('autoRefresh').checked,
    everyMinutes: Number.isFinite(minutes) && minutes >= 5 ? minutes : 60,
  };
  await setAutoRefresh(excelRun, next);
  applyAutoRefresh(next);
  return next.enabled
    ? `On for this workbook: on open and every ${next.everyMinutes} minutes.`
    : 'Off for this workbook.';
}

/** The workbook's choice, read when the pane starts (with the document, once opted in). */
async function startAutoRefresh(): Promise<void> {
  if (!(globalThis as { Excel?: unknown }).Excel) return;
  const s = await excelRun(readAutoRefresh);
  $<Control>('autoRefresh').checked = s.enabled;
  input('autoEvery').value = String(s.everyMinutes);
  applyAutoRefresh(s);
}

/** Wires the switch and the interval, then starts the workbook's schedule. */
export function initAutoRefreshControls(): void {
  for (const id of ['autoRefresh', 'autoEvery']) {
    $(id).addEventListener(
      'change',
      () =>
        void changeAutoRefresh().then(
          (t) => say('autoStatus', t),
          (err) => say('autoStatus', message(err)),
        ),
    );
  }
  void startAutoRefresh().catch((err) => say('autoStatus', message(err)));
}
