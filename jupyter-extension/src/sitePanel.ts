import { fetchMeta, siteScore, siteScoreTable, type SiteScoreT, type Table } from '@dchub/core';
import { Panel, Widget } from '@lumino/widgets';
import { chartContext, VIEW_CHARTS } from './chartData';
import { ChartSwitch } from './chartSwitch';
import type { Connection } from './connection';
import {
  button,
  div,
  field,
  hiddenDiv,
  numberInput,
  readNumber,
  showBusy,
  submitForm,
  tableActions,
  type PythonCall,
  type TableSource
} from './dom';
import type { SectionOptions } from './section';
import { AnswerBanner } from './banner';
import { formNumber, pythonCall } from './pycode';
import { cellText } from './tableView';
import type { SiteHandoff } from './queuePanel';
import { LatestRequest } from './request';
import { sectionTab } from './views';

export interface SitePanelOptions extends SectionOptions {
  /** Called when "Score site" is pressed (the plugin routes it through a command). */
  onScore: () => void;
}

/** The site-score form's values as typed. */
export interface SiteQuery {
  lat: string;
  lon: string;
  capacity_mw: string;
}

/**
 * Site score (spec §2.3): latitude, longitude and capacity in, a readable card out (score,
 * interpretation, fiber, nearby infrastructure, capacity context). The field/value table of
 * the answer is what Export CSV writes.
 */
export class SitePanel extends Panel implements TableSource {
  readonly kind = 'site-score';
  readonly exportTitle = 'DC Hub site score';

  private readonly _connection: Connection;
  private _last: SiteScoreT | null = null;
  /** The form's values the last score was asked with, for the notebook code. */
  private _lastQuery: SiteQuery | null = null;
  private _source: string | undefined;
  /** Card or Chart: the components against the overall score. */
  readonly charts: ChartSwitch;

  private readonly _lat: HTMLInputElement;
  private readonly _lon: HTMLInputElement;
  private readonly _capacity: HTMLInputElement;
  private readonly _button: HTMLButtonElement;
  private readonly _busy: HTMLElement;
  private readonly _error: HTMLElement;
  private readonly _card: HTMLElement;
  private readonly _request: LatestRequest;

  constructor(options: SitePanelOptions) {
    super();
    this._connection = options.connection;
    sectionTab(this, 'jp-DCHub-site', 'Site score', 'Score a location for a data center');

    // Form and card, the chart in the card's place, the actions: one scrolling column.
    const top = new Panel();
    top.addClass('jp-DCHub-top');
    top.addClass('jp-DCHub-scroll');
    const form = submitForm('jp-DCHub-form jp-DCHub-site-form', () => options.onScore());
    this._lat = numberInput('lat', 'e.g. 39.04');
    this._lon = numberInput('lon', 'e.g. -77.49');
    this._capacity = numberInput('capacity_mw', 'optional', { min: '0' });
    this._button = button('jp-DCHub-site-score', 'Score site', undefined, 'submit');
    form.append(
      field('Latitude', this._lat),
      field('Longitude', this._lon),
      field('Capacity (MW)', this._capacity),
      this._button
    );
    this._busy = hiddenDiv('jp-DCHub-site-busy', 'Scoring the site…', 'status');
    this._error = hiddenDiv('jp-DCHub-site-error', '', 'alert');
    this._card = hiddenDiv('jp-DCHub-site-card');
    this.charts = new ChartSwitch({
      charts: options.charts,
      choices: VIEW_CHARTS.site,
      table: this._card,
      tableLabel: 'Card',
      source: {
        chartRows: () => (this._last ? { records: [this._last], sourceRows: [0], version: this._last } : null),
        chartContext: () => chartContext([fetchMeta(this._last)], { citation: this.exportTable()?.citation })
      }
    });
    // Nothing to chart before the first score.
    this.charts.bar.hidden = true;
    const card = new Widget();
    card.node.append(form, this._busy, this._error, this.charts.bar, this._card);
    const actions = new Widget();
    actions.node.append(tableActions(this.kind, options.actions));
    top.addWidget(card);
    top.addWidget(this.charts.area);
    top.addWidget(actions);
    this.addWidget(top);

    this._request = new LatestRequest({
      error: this._error,
      setBusy: (busy) => showBusy(this.node, this._busy, this._button, busy)
    });
  }

  /** The form's current values. */
  get query(): SiteQuery {
    return { lat: this._lat.value, lon: this._lon.value, capacity_mw: this._capacity.value };
  }

  /** Fills the form (fields left out keep their value). */
  set query(q: Partial<SiteQuery>) {
    if (q.lat !== undefined) this._lat.value = q.lat;
    if (q.lon !== undefined) this._lon.value = q.lon;
    if (q.capacity_mw !== undefined) this._capacity.value = q.capacity_mw;
  }

  /** Fills the form from a queue row's hand-off. */
  setHandoff(site: SiteHandoff): void {
    this.query = {
      lat: String(site.lat),
      lon: String(site.lon),
      capacity_mw: site.capacity_mw !== undefined ? String(site.capacity_mw) : ''
    };
    this._source = site.label;
  }

  /** The last answer. */
  get lastResult(): SiteScoreT | null {
    return this._last;
  }

  exportTable(): Table | null {
    if (!this._last) return null;
    const t = siteScoreTable(this._last);
    return {
      ...t,
      citation: this._last.source
        ? `DC Hub site score (${this._last.source}), dchub.cloud`
        : 'DC Hub site score, dchub.cloud'
    };
  }

  /** `hub.site_score(lat, lon, capacity_mw=…)` with the values last scored. */
  pythonCall(): PythonCall | null {
    const q = this._lastQuery;
    if (!this._last || !q) return null;
    return {
      call: pythonCall('site_score', { capacity_mw: formNumber(q.capacity_mw) }, [
        formNumber(q.lat),
        formNumber(q.lon)
      ]),
      variable: 'site'
    };
  }

  /** Scores the form's location. Never throws: failures land in the error area. */
  async score(): Promise<SiteScoreT | null> {
    const asked = this.query;
    return this._request.run(
      async (signal) => {
        const query = {
          lat: readNumber(this._lat, 'lat'),
          lon: readNumber(this._lon, 'lon'),
          capacity_mw: readNumber(this._capacity, 'capacity_mw') || undefined
        };
        const client = await this._connection.client();
        return siteScore(client, query, { signal });
      },
      (result) => {
        this._last = result;
        this._lastQuery = asked;
        this._render(result);
        this.charts.bar.hidden = !this.charts.offered;
        void this.charts.refresh();
      }
    );
  }

  dispose(): void {
    if (this.isDisposed) return;
    this._request.abort();
    this.charts.dispose();
    super.dispose();
  }

  private _render(s: SiteScoreT): void {
    const card = this._card;
    card.replaceChildren();
    card.dataset.score = String(s.overall_score);
    card.dataset.lat = String(s.location.lat);
    card.dataset.lon = String(s.location.lon);

    const head = div('jp-DCHub-site-head');
    const score = div('jp-DCHub-site-scorevalue', cellText(s.overall_score));
    score.setAttribute('aria-label', `Overall score ${cellText(s.overall_score)}`);
    const where = div(
      'jp-DCHub-site-where',
      `${cellText(s.location.lat)}, ${cellText(s.location.lon)}${s.location.state ? ` (${s.location.state})` : ''}` +
        (s.capacity_requested_mw ? ` · ${cellText(s.capacity_requested_mw)} MW` : '')
    );
    head.append(score, where);
    if (this._source) head.append(div('jp-DCHub-site-source', `From queue: ${this._source}`));
    // Below Pro the scores come back blank: the banner says it is a preview and what it withholds.
    const banner = new AnswerBanner('jp-DCHub-site-banner');
    banner.showMeta([fetchMeta(s)]);
    card.append(head, banner.node, div('jp-DCHub-site-interpretation', s.interpretation));

    if (s.scores && Object.keys(s.scores).length) {
      card.append(
        section(
          'Component scores',
          Object.entries(s.scores).map(([k, v]) => [label(k), cellText(v)])
        )
      );
    }
    if (s.fiber) {
      const f = s.fiber;
      const rows: Array<[string, string]> = [
        ['Connectivity score', cellText(f.connectivity_score)],
        ['Basis', f.basis]
      ];
      if (f.carrier_count !== undefined) rows.push(['Carriers', cellText(f.carrier_count)]);
      if (f.nearest_carrier_km !== undefined) rows.push(['Nearest carrier', `${cellText(f.nearest_carrier_km)} km`]);
      if (f.near_net_bucket) rows.push(['Near-net', f.near_net_bucket]);
      if (f.single_carrier_risk !== undefined) rows.push(['Single-carrier risk', f.single_carrier_risk ? 'yes' : 'no']);
      if (f.top_carriers?.length)
        rows.push([
          'Top carriers',
          f.top_carriers.map((c) => `${c.carrier} (${cellText(c.distance_km)} km)`).join(', ')
        ]);
      card.append(section('Fiber', rows, 'jp-DCHub-site-fiber'));
    }
    if (s.nearby && Object.keys(s.nearby).length) {
      card.append(
        section(
          'Nearby',
          Object.entries(s.nearby)
            .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
            .map(([k, v]) => [label(k), cellText(v as number)]),
          'jp-DCHub-site-nearby'
        )
      );
    }
    if (s.capacity_context && Object.keys(s.capacity_context).length) {
      const c = s.capacity_context;
      const rows: Array<[string, string]> = [];
      if (c.affects_overall_score !== undefined)
        rows.push(['Affects overall score', c.affects_overall_score ? 'yes' : 'no']);
      if (c.basis) rows.push(['Basis', c.basis]);
      if (c.instead) rows.push(['Instead', c.instead]);
      card.append(section('Capacity context', rows, 'jp-DCHub-site-capacity'));
    }
    if (s.upgrade_url) card.append(div('jp-DCHub-site-upgrade', `More detail with a higher tier: ${s.upgrade_url}`));
    // In Chart mode the chart stays in the card's place.
    card.hidden = this.charts.mode !== 'table';
  }
}

function label(key: string): string {
  const s = key.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function section(title: string, rows: Array<[string, string]>, className = 'jp-DCHub-site-section'): HTMLElement {
  const el = document.createElement('section');
  el.className = `jp-DCHub-site-block ${className}`;
  const h = document.createElement('h3');
  h.textContent = title;
  const dl = document.createElement('dl');
  for (const [k, v] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dl.append(dt, dd);
  }
  el.append(h, dl);
  return el;
}
