/**
 * The pane's pictures (DOM only): *Insert chart* and *Update charts* (native Excel charts, see
 * ./charts) and the Map tab, which draws core's queue or markets map of the selected table. The
 * map's renderer (Vega) is a chunk requested when the tab first opens.
 */
import { dcpiScores } from '@dchub/core';
import { lacksCoordinates, withMarketCoordinates } from '@dchub/core/charts';
import { serviceClient } from '../functions/service';
import { excelRun } from './actions';
import { followSpilledSources, insertChart, updateCharts, type ChartUpdate } from './charts';
import { paneChartTheme } from './office-theme';
import { selectedSource } from './source';

type Say = (id: string, text: string) => void;
type Action = (buttonId: string, statusId: string, fn: () => Promise<string>) => void;

const $ = (id: string) => document.getElementById(id) as HTMLElement;

const KIND_TEXT = { leaderboard: 'leaderboard', queue_mix: 'queue mix', ranking: 'ranking' } as const;

function updatesText(updates: readonly ChartUpdate[]): string {
  const updated = updates.filter((u) => u.updated).map((u) => `"${u.sheet}"`);
  const failed = updates.filter((u) => u.error).map((u) => `"${u.sheet}": ${u.error}`);
  const rest = updates.length - updated.length - failed.length;
  return [
    updated.length ? `Brought up to date: ${updated.join(', ')}.` : '',
    rest ? `${rest} chart${rest === 1 ? '' : 's'} already up to date.` : '',
    ...failed,
    updates.length ? '' : 'No charts drawn by DC Hub in this workbook.',
  ]
    .filter(Boolean)
    .join(' ');
}

type MapModule = typeof import('./map-render');
let mapModule: Promise<MapModule> | undefined;

/** map.js (Vega and the map's outlines), loaded once, when first needed, from beside the pane. */
function loadMap(): Promise<MapModule> {
  mapModule ??= new Promise<MapModule>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'map.js';
    script.onload = () => {
      const m = (globalThis as { DchubMap?: MapModule }).DchubMap;
      if (m) resolve(m);
      else reject(new Error('map.js loaded without the map'));
    };
    script.onerror = () => {
      mapModule = undefined; // try again on the next draw
      reject(new Error('Cannot load the map (map.js).'));
    };
    document.head.append(script);
  });
  return mapModule;
}

/**
 * The map of the selected table: the queue's projects, or the markets (placed by the DCPI scores when a brief carries
 * no coordinates).
 */
async function drawMap(): Promise<string> {
  const src = await excelRun(selectedSource);
  if (src.kind === 'ranking')
    throw new Error('The map draws a QUEUE table or a market table (briefs, DCPI); select a cell of one.');
  const name = src.kind === 'queue' ? 'queue_map' : 'markets_map';
  let rows = src.rows;
  let placed = '';
  if (name === 'markets_map' && lacksCoordinates(rows)) {
    // One call for every market's coordinates (cached, and the same list the DCPI cells read).
    const scores = (await dcpiScores(await serviceClient(), {})) as unknown as { scores?: Record<string, unknown>[] };
    rows = withMarketCoordinates(rows, scores.scores ?? []);
    placed = ' Markets placed by the DCPI scores list.';
  }
  const { drawChart } = await loadMap();
  const el = $('map');
  const data = { rows, asOf: src.asOf, citation: src.citation, notes: src.notes };
  const facts = await drawChart(el, name, data, paneChartTheme());
  el.dataset.drawn = String(facts.drawn);
  el.dataset.chart = name;
  const what = name === 'queue_map' ? 'projects' : 'markets';
  return `Drew ${facts.drawn} of ${facts.rows} ${what} from ${src.label}; hover a point for its details.${placed}`;
}

/** Wires the buttons; the Map tab draws the selection the first time it opens; charts follow their spills. */
export function initVisuals(action: Action, say: Say): void {
  action('insertChart', 'chartStatus', async () => {
    const r = await excelRun((ctx) => insertChart(ctx));
    const notes = r.notes.length ? ` ${r.notes.join(' ')}` : '';
    return `Inserted the ${KIND_TEXT[r.kind]} chart (${r.rows} rows) on "${r.sheet}" from ${r.from}.${notes}`;
  });
  action('updateCharts', 'chartStatus', async () => updatesText(await excelRun((ctx) => updateCharts(ctx))));
  action('drawMap', 'mapStatus', drawMap);
  const panel = $('panel-map');
  let drawn = false;
  const onOpen = () => {
    if (drawn || panel.hidden) return;
    drawn = true;
    $('drawMap').click();
  };
  new MutationObserver(onOpen).observe(panel, { attributes: true, attributeFilter: ['hidden'] });
  if ((globalThis as { Excel?: unknown }).Excel) {
    void followSpilledSources(excelRun, (u) => say('chartStatus', updatesText(u))).catch(() => undefined);
  }
}
