import {
  fetchMeta,
  RANK_SCORING_MODES,
  parseScoringMode,
  rankSites,
  rankedTable,
  scalarText,
  type Cell,
  type Constraints,
  type Objectives,
  type RankedSitesT,
  type ScoringMode,
  type Table
} from '@dchub/core';
import { Panel } from '@lumino/widgets';
import type { Connection } from './connection';
import {
  button,
  div,
  field,
  hiddenDiv,
  numberInput,
  readNumber,
  select,
  showBusy,
  showText,
  submitForm,
  tableActions,
  textInput,
  type PythonCall,
  type TableSource
} from './dom';
import { VIEW_CHARTS } from './chartData';
import { ChartSwitch, tableChartSource } from './chartSwitch';
import { pythonCall } from './pycode';
import { layoutTableView, nodeRow, ResultView, sectionTab } from './views';
import { TableGrid } from './grid';
import { editorConstraints, editorObjectives, numericFields, type ConstraintRow, type ObjectiveRow } from './rankForm';
import { LatestRequest } from './request';
import type { SectionOptions } from './section';
import { TableModel } from './tableModel';

export interface RankPanelOptions extends SectionOptions {
  /** Called when "Rank" is pressed (the plugin routes it through a command). */
  onRank: () => void;
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
  /** Table or Chart: why the ranking came out this way (each objective's weighted share). */
  readonly charts: ChartSwitch;
  readonly view = new ResultView('ranking', 'DC Hub ranking', 'Ranked candidate sites');

  private readonly _connection: Connection;
  private _candidates: Array<Record<string, Cell>> = [];
  private _last: RankedSitesT | null = null;

  private readonly _candidateInfo = candidateInfo();
  /** The candidates' numeric fields, offered by every field box. */
  private readonly _fieldList = Object.assign(document.createElement('datalist'), {
    id: `jp-DCHub-rank-fields-${Math.random().toString(36).slice(2, 8)}`
  });
  private readonly _objectives = div('jp-DCHub-rank-objectives');
  private readonly _constraints = div('jp-DCHub-rank-constraints');
  private readonly _mode = select('mode', RANK_SCORING_MODES);
  private readonly _topK = numberInput('top_k', 'all', { min: '1', step: '1' });
  private readonly _button = button('jp-DCHub-rank-run', 'Rank', undefined, 'submit');
  private readonly _busy = hiddenDiv('jp-DCHub-rank-busy', 'Ranking…', 'status');
  private readonly _error = hiddenDiv('jp-DCHub-rank-error', '', 'alert');
  private readonly _count = hiddenDiv('jp-DCHub-rank-count');
  private readonly _caveats = Object.assign(document.createElement('ul'), {
    className: 'jp-DCHub-rank-caveats',
    hidden: true
  });
  private readonly _citation = hiddenDiv('jp-DCHub-rank-citation');
  private readonly _request = new LatestRequest({
    error: this._error,
    setBusy: (busy) => showBusy(this.node, this._busy, this._button, busy)
  });
  private readonly _showView: (view: ResultView) => void;
  private _lastArgs: {
    objectives: Objectives;
    constraints: Constraints | undefined;
    mode: ScoringMode;
    topK: number;
  } | null = null;

  constructor(options: RankPanelOptions) {
    super();
    this._connection = options.connection;
    this._showView = options.showView;
    sectionTab(this, 'jp-DCHub-rank', 'Rank', 'Rank candidate sites on weighted objectives');
    this.addWidget(nodeRow('jp-DCHub-top', this._candidateInfo, this._form(options.onRank), this._busy, this._error));
    for (const o of DEFAULT_OBJECTIVES) this._addObjective(o);

    this.grid = new TableGrid(this.model, { className: 'jp-DCHub-rank-grid', label: 'Ranked sites' });
    // The weights the ranking was asked with: the chart's contributions are the service's formula.
    const source = tableChartSource(
      this.model,
      () => [fetchMeta(this._last)],
      () => (this._lastArgs ? { objectives: this._lastArgs.objectives } : {})
    );
    this.charts = new ChartSwitch({
      charts: options.charts,
      choices: VIEW_CHARTS.ranking,
      table: this.grid,
      grid: this.grid,
      source
    });
    layoutTableView(this.view, {
      head: [this.charts.bar, this._count, this._caveats],
      grid: this.grid,
      charts: this.charts.area,
      bottom: [tableActions(this.kind, options.actions), this._citation]
    });
  }

  /** The objectives and constraints editors, the mode, top k and the Rank button. */
  private _form(onRank: () => void): HTMLFormElement {
    const form = submitForm('jp-DCHub-rank-form', () => onRank());
    const addObjective = button('jp-DCHub-rank-add-objective', '+ Objective', () =>
      this._addObjective({ field: '', weight: '1' })
    );
    const addConstraint = button('jp-DCHub-rank-add-constraint', '+ Constraint', () =>
      this._addConstraint({ field: '', min: '', max: '' })
    );
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
    return form;
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
  get editor(): { objectives: ObjectiveRow[]; constraints: ConstraintRow[]; mode: string } {
    const rows = (parent: HTMLElement) => [...parent.querySelectorAll<HTMLElement>('.jp-DCHub-rank-row')];
    const value = (row: HTMLElement, name: string) =>
      row.querySelector<HTMLInputElement>(`[name="${name}"]`)?.value ?? '';
    return {
      objectives: rows(this._objectives).map((r) => ({
        field: value(r, 'objective_field'),
        weight: value(r, 'objective_weight')
      })),
      constraints: rows(this._constraints).map((r) => ({
        field: value(r, 'constraint_field'),
        min: value(r, 'constraint_min'),
        max: value(r, 'constraint_max')
      })),
      mode: this._mode.value
    };
  }

  exportTable(): Table | null {
    return this._last ? this.model.visibleTable : null;
  }

  /** `hub.rank(candidates, objectives, ...)` with the candidates written out (they came from a selection). */
  pythonCall(): PythonCall | null {
    const a = this._lastArgs;
    if (!this._last || !a) return null;
    const args: Record<string, unknown> = {};
    if (a.constraints) args.constraints = a.constraints;
    if (a.mode !== 'relative') args.mode = a.mode;
    args.top_k = a.topK;
    return { call: pythonCall('rank', args, [this._candidates, a.objectives]), variable: 'ranked' };
  }

  /** Ranks the candidates. Never throws: failures land in the error area. */
  async rank(): Promise<RankedSitesT | null> {
    let objectives: string[] = [];
    return this._request.run(
      async (signal) => {
        if (!this._candidates.length)
          throw new Error('No candidates: select rows in the Queue tab and press "Rank selected".');
        const editor = this.editor;
        const topK = readNumber(this._topK, 'top_k');
        // Core reads the editor rows as every host's ranking arguments (errors name the argument).
        const objectiveMap = editorObjectives(editor.objectives);
        objectives = Object.keys(objectiveMap);
        const constraints = editorConstraints(editor.constraints);
        const mode = parseScoringMode(editor.mode) ?? 'relative';
        const topKValue = topK ? Number(topK) : this._candidates.length;
        this._lastArgs = { objectives: objectiveMap, constraints, mode, topK: topKValue };
        const client = await this._connection.client();
        return rankSites(
          client,
          {
            candidates: this._candidates,
            objectives: objectiveMap,
            constraints,
            mode,
            top_k: topKValue
          },
          { signal }
        );
      },
      (result) => this._show(result, objectives)
    );
  }

  updateTheme(): void {
    this.grid.updateTheme();
    this.charts.updateTheme();
  }

  dispose(): void {
    if (this.isDisposed) return;
    this._request.abort();
    this.charts.dispose();
    super.dispose();
  }

  private _show(result: RankedSitesT, objectives: string[]): void {
    this._last = result;
    this._showView(this.view);
    const table = rankedTable(result, objectives);
    this.model.setTable(table);
    this.grid.fitColumns();
    this._count.textContent =
      `Ranked ${result.count_ranked}, showing ${result.count_returned} (${result.scoring_mode})` +
      (result.dropped_by_constraints ? `; ${result.dropped_by_constraints} dropped by constraints` : '');
    this._count.dataset.countRanked = String(result.count_ranked);
    this._count.dataset.countReturned = String(result.count_returned);
    this._count.dataset.dropped = String(result.dropped_by_constraints);
    this._count.dataset.ids = result.results.map((r) => scalarText((r as { id?: unknown }).id) ?? '').join(' ');
    this._count.hidden = false;
    // What the service explains (objectives not scored and why, candidates left out, caveats), a line each.
    const caveats = fetchMeta(result)?.explanations ?? [];
    this._caveats.replaceChildren(
      ...caveats.map((c) => Object.assign(document.createElement('li'), { textContent: c }))
    );
    this._caveats.hidden = !caveats.length;
    showText(this._citation, table.citation);
  }

  private _addObjective(row: ObjectiveRow): void {
    this._addRow(this._objectives, 'objective', row.field, [['weight', row.weight]]);
  }

  private _addConstraint(row: ConstraintRow): void {
    this._addRow(this._constraints, 'constraint', row.field, [
      ['min', row.min],
      ['max', row.max]
    ]);
  }

  /**
   * An editor row: `<prefix>_field` (offering the candidates' fields), number boxes `<prefix>_<name>`, a remove button.
   */
  private _addRow(
    parent: HTMLElement,
    prefix: string,
    fieldValue: string,
    numbers: Array<[name: string, value: string]>
  ): void {
    const el = div('jp-DCHub-rank-row');
    const f = textInput(`${prefix}_field`, 'field');
    f.setAttribute('list', this._fieldList.id);
    f.value = fieldValue;
    const boxes = numbers.map(([name, value]) => {
      const box = numberInput(`${prefix}_${name}`, name);
      box.value = value;
      return box;
    });
    el.append(f, ...boxes, removeButton(el));
    parent.append(el);
  }
}

/** The line saying how many candidates there are and where they came from. */
function candidateInfo(): HTMLElement {
  const info = div(
    'jp-DCHub-rank-candidates',
    'No candidates yet: select rows in the Queue tab and press "Rank selected".'
  );
  info.dataset.count = '0';
  return info;
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
