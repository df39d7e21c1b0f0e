import { RANK_SCORING_MODES, rankSites, rankedTable, type Cell, type RankedSitesT, type ScoringMode, type Table } from '@dchub/core';
import { Panel, Widget } from '@lumino/widgets';
import type { Connection } from './connection';
import { button, div, field, numberInput, readNumber, showError, tableActions, textInput, type SectionActions, type TableSource } from './dom';
import { TableGrid } from './grid';
import { constraintsFromRows, numericFields, objectivesFromRows, type ConstraintRow, type ObjectiveRow } from './helpers';
import { TableModel } from './tableModel';

export interface RankPanelOptions {
  connection: Connection;
  /** Called when "Rank" is pressed (the plugin routes it through a command). */
  onRank: () => void;
  actions: SectionActions;
}

/** Objectives offered for queue candidates before the user edits them. */
const DEFAULT_OBJECTIVES: ObjectiveRow[] = [
  { field: 'capacity_mw', weight: '1' },
  { field: 'estimated_ttp_months', weight: '-1' },
  { field: 'fiber_km', weight: '-1' }
];

/**
 * Ranking (spec §4.4): candidates handed over from the queue selection, an objectives editor
 * (field and signed weight: + maximizes, − minimizes), min/max constraints, the scoring mode,
 * and the ranked sites in a grid with the service's caveats.
 */
export class RankPanel extends Panel implements TableSource {
  readonly kind = 'ranking';
  readonly exportTitle = 'DC Hub site ranking';
  readonly model = new TableModel(undefined, { keyColumn: 'id' });
  readonly grid: TableGrid;

  private readonly _connection: Connection;
  private _candidates: Array<Record<string, Cell>> = [];
  private _last: RankedSitesT | null = null;
  private _inflight: AbortController | null = null;

  private readonly _candidateInfo: HTMLElement;
  private readonly _fieldList: HTMLDataListElement;
  private readonly _objectives: HTMLElement;
  private readonly _constraints: HTMLElement;
  private readonly _mode: HTMLSelectElement;
  private readonly _topK: HTMLInputElement;
  private readonly _button: HTMLButtonElement;
  private readonly _busy: HTMLElement;
  private readonly _error: HTMLElement;
  private readonly _count: HTMLElement;
  private readonly _caveats: HTMLElement;
  private readonly _citation: HTMLElement;

  constructor(options: RankPanelOptions) {
    super();
    this._connection = options.connection;
    this.addClass('jp-DCHub-section');
    this.addClass('jp-DCHub-rank');
    this.title.label = 'Rank';
    this.title.caption = 'Rank candidate sites on weighted objectives';

    const top = new Widget();
    top.addClass('jp-DCHub-top');
    this._candidateInfo = div('jp-DCHub-rank-candidates', 'No candidates yet: select rows in the Queue tab and press "Rank selected".');
    this._candidateInfo.dataset.count = '0';
    this._fieldList = document.createElement('datalist');
    this._fieldList.id = `jp-DCHub-rank-fields-${Math.random().toString(36).slice(2, 8)}`;

    const form = document.createElement('form');
    form.className = 'jp-DCHub-rank-form';
    form.noValidate = true;
    this._objectives = div('jp-DCHub-rank-objectives');
    this._constraints = div('jp-DCHub-rank-constraints');
    const addObjective = button('jp-DCHub-rank-add-objective', '+ Objective', () => this._addObjective({ field: '', weight: '1' }));
    const addConstraint = button('jp-DCHub-rank-add-constraint', '+ Constraint', () => this._addConstraint({ field: '', min: '', max: '' }));
    this._mode = document.createElement('select');
    this._mode.name = 'mode';
    this._mode.className = 'jp-DCHub-input';
    for (const m of RANK_SCORING_MODES) this._mode.add(new Option(m, m));
    this._topK = numberInput('top_k', 'all', { min: '1', step: '1' });
    this._button = button('jp-DCHub-rank-run', 'Rank', undefined, 'submit');
    const settings = div('jp-DCHub-form');
    settings.append(field('Mode', this._mode), field('Top k', this._topK), this._button);
    form.append(
      heading('Objectives (+ maximize, − minimize)'),
      this._objectives,
      addObjective,
      heading('Constraints'),
      this._constraints,
      addConstraint,
      settings,
      this._fieldList
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      options.onRank();
    });
    for (const o of DEFAULT_OBJECTIVES) this._addObjective(o);

    this._busy = div('jp-DCHub-rank-busy', 'Ranking…');
    this._busy.setAttribute('role', 'status');
    this._busy.hidden = true;
    this._error = div('jp-DCHub-rank-error');
    this._error.setAttribute('role', 'alert');
    this._error.hidden = true;
    this._count = div('jp-DCHub-rank-count');
    this._count.hidden = true;
    this._caveats = document.createElement('ul');
    this._caveats.className = 'jp-DCHub-rank-caveats';
    this._caveats.hidden = true;
    top.node.append(this._candidateInfo, form, this._busy, this._error, this._count, this._caveats);
    this.addWidget(top);

    this.grid = new TableGrid(this.model, { className: 'jp-DCHub-rank-grid' });
    this.addWidget(this.grid);

    const bottom = new Widget();
    bottom.addClass('jp-DCHub-bottom');
    this._citation = div('jp-DCHub-rank-citation');
    this._citation.hidden = true;
    bottom.node.append(tableActions(this.kind, options.actions), this._citation);
    this.addWidget(bottom);
  }

  /** The candidates to rank. */
  get candidates(): ReadonlyArray<Record<string, Cell>> {
    return this._candidates;
  }

  /** Replaces the candidates (from the queue selection) and offers their numeric fields. */
  setCandidates(candidates: Array<Record<string, Cell>>, source = 'queue selection'): void {
    this._candidates = candidates;
    this._candidateInfo.dataset.count = String(candidates.length);
    this._candidateInfo.textContent = `${candidates.length} candidate${candidates.length === 1 ? '' : 's'} from the ${source}.`;
    this._fieldList.replaceChildren(...numericFields(candidates).map((f) => new Option(f, f)));
  }

  /** The objectives and constraints as edited. */
  get editor(): { objectives: ObjectiveRow[]; constraints: ConstraintRow[]; mode: ScoringMode } {
    const rows = (parent: HTMLElement) => [...parent.querySelectorAll<HTMLElement>('.jp-DCHub-rank-row')];
    const value = (row: HTMLElement, name: string) => row.querySelector<HTMLInputElement>(`[name="${name}"]`)?.value ?? '';
    return {
      objectives: rows(this._objectives).map((r) => ({ field: value(r, 'objective_field'), weight: value(r, 'objective_weight') })),
      constraints: rows(this._constraints).map((r) => ({ field: value(r, 'constraint_field'), min: value(r, 'constraint_min'), max: value(r, 'constraint_max') })),
      mode: this._mode.value as ScoringMode
    };
  }

  exportTable(): Table | null {
    return this._last ? this.model.visibleTable : null;
  }

  /** Ranks the candidates. Never throws: failures land in the error area. */
  async rank(): Promise<RankedSitesT | null> {
    this._inflight?.abort();
    const inflight = new AbortController();
    this._inflight = inflight;
    this._setBusy(true);
    showError(this._error, null, '');
    try {
      if (!this._candidates.length) throw new Error('No candidates: select rows in the Queue tab and press "Rank selected".');
      const { objectives, constraints, mode } = this.editor;
      const topK = readNumber(this._topK, 'top_k');
      const objectiveMap = objectivesFromRows(objectives);
      const client = await this._connection.client();
      const result = await rankSites(
        client,
        {
          candidates: this._candidates,
          objectives: objectiveMap as Record<string, number>,
          constraints: constraintsFromRows(constraints) as Record<string, { min?: number; max?: number }>,
          mode,
          top_k: topK ? Number(topK) : this._candidates.length
        },
        { signal: inflight.signal }
      );
      if (inflight.signal.aborted) return null;
      this._show(result, Object.keys(objectiveMap));
      return result;
    } catch (err) {
      if (inflight.signal.aborted) return null;
      showError(this._error, err, 'Check the connection to the DC Hub service.');
      return null;
    } finally {
      if (this._inflight === inflight) {
        this._inflight = null;
        this._setBusy(false);
      }
    }
  }

  updateTheme(): void {
    this.grid.updateTheme();
  }

  dispose(): void {
    if (this.isDisposed) return;
    this._inflight?.abort();
    super.dispose();
  }

  private _show(result: RankedSitesT, objectives: string[]): void {
    this._last = result;
    const table = rankedTable(result, objectives);
    this.model.setTable(table);
    this.grid.fitColumns();
    this._count.textContent =
      `Ranked ${result.count_ranked}, showing ${result.count_returned} (${result.scoring_mode})` +
      (result.dropped_by_constraints ? `; ${result.dropped_by_constraints} dropped by constraints` : '');
    this._count.dataset.countRanked = String(result.count_ranked);
    this._count.dataset.countReturned = String(result.count_returned);
    this._count.dataset.dropped = String(result.dropped_by_constraints);
    this._count.dataset.ids = result.results.map((r) => String((r as { id?: unknown }).id ?? '')).join(' ');
    this._count.hidden = false;
    const caveats = result.caveats ?? [];
    this._caveats.replaceChildren(...caveats.map((c) => Object.assign(document.createElement('li'), { textContent: c })));
    this._caveats.hidden = !caveats.length;
    this._citation.textContent = table.citation ?? '';
    this._citation.hidden = !table.citation;
  }

  private _setBusy(busy: boolean): void {
    this._busy.hidden = !busy;
    this._button.disabled = busy;
    this.node.setAttribute('aria-busy', String(busy));
  }

  private _addObjective(row: ObjectiveRow): void {
    const el = div('jp-DCHub-rank-row');
    const f = textInput('objective_field', 'field');
    f.setAttribute('list', this._fieldList.id);
    f.value = row.field;
    const w = numberInput('objective_weight', 'weight');
    w.value = row.weight;
    el.append(f, w, removeButton(el));
    this._objectives.append(el);
  }

  private _addConstraint(row: ConstraintRow): void {
    const el = div('jp-DCHub-rank-row');
    const f = textInput('constraint_field', 'field');
    f.setAttribute('list', this._fieldList.id);
    f.value = row.field;
    const min = numberInput('constraint_min', 'min');
    min.value = row.min;
    const max = numberInput('constraint_max', 'max');
    max.value = row.max;
    el.append(f, min, max, removeButton(el));
    this._constraints.append(el);
  }
}

function heading(text: string): HTMLElement {
  const h = document.createElement('h3');
  h.className = 'jp-DCHub-rank-heading';
  h.textContent = text;
  return h;
}

function removeButton(row: HTMLElement): HTMLButtonElement {
  const b = button('jp-DCHub-rank-remove', '×', () => row.remove());
  b.setAttribute('aria-label', 'Remove row');
  return b;
}
