import {
  scalarText,
  toolAnswerNotes,
  toolRefusal,
  toolTable,
  type Table,
  type ToolArgSchema,
  type ToolResult
} from '@dchub/core';
import { Panel } from '@lumino/widgets';
import type { Connection } from './connection';
import {
  button,
  checkbox,
  CHECK_FIELD,
  controlValues,
  div,
  field,
  fillControls,
  hiddenDiv,
  numberInput,
  select,
  showBusy,
  submitForm,
  tableActions,
  textArea,
  textInput,
  WIDE_FIELD,
  type FormControl,
  type PythonCall,
  type TableSource
} from './dom';
import { AnswerBanner } from './banner';
import { pythonCall } from './pycode';
import { layoutTableView, nodeRow, ResultView, sectionTab } from './views';
import { TableGrid } from './grid';
import { argControl, recordFields, resolveArgSchema, toolArgs } from './toolArgs';
import { runBusy, type RequestView } from './request';
import type { SectionOptions } from './section';
import { TableModel } from './tableModel';

export interface McpPanelOptions extends SectionOptions {
  /** Called when "Call tool" is pressed (the plugin routes it through a command). */
  onCall: () => void;
}

/** The prefix of the form's argument controls' names (`arg_limit`). */
const ARG = 'arg_';

interface ToolInfo {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

/**
 * The DC Hub MCP tools: the server's tool list, a form generated from the selected tool's input
 * schema, and the answer as a grid when it is tabular (`toolTable`), else as JSON.
 */
export class McpPanel extends Panel implements TableSource {
  readonly kind = 'mcp';
  readonly model = new TableModel();
  readonly grid: TableGrid;
  readonly view = new ResultView('mcp', 'DC Hub tool', 'DC Hub MCP tool answer');

  private readonly _connection: Connection;
  private _tools: ToolInfo[] = [];
  private _loading: Promise<ToolInfo[]> | null = null;
  private _last: { result: ToolResult; table: Table | undefined } | null = null;

  private readonly _select: HTMLSelectElement;
  private readonly _description: HTMLElement;
  private readonly _form: HTMLFormElement;
  private readonly _fields: HTMLElement;
  private readonly _button: HTMLButtonElement;
  private readonly _busy: HTMLElement;
  private readonly _error: HTMLElement;
  private readonly _banner = new AnswerBanner('jp-DCHub-mcp-banner');
  private readonly _count: HTMLElement;
  private readonly _result: HTMLElement;
  private readonly _json: HTMLPreElement;
  private readonly _view: RequestView;
  private readonly _showView: (view: ResultView) => void;
  private _lastArgs: Record<string, unknown> = {};

  constructor(options: McpPanelOptions) {
    super();
    this._connection = options.connection;
    sectionTab(this, 'jp-DCHub-mcp', 'Tools', 'DC Hub MCP tools');

    this._count = div('jp-DCHub-mcp-count', 'Tools not loaded yet.');
    this._select = select('tool');
    this._select.addEventListener('change', () => this._renderForm());
    this._description = div('jp-DCHub-mcp-description');
    this._form = submitForm('jp-DCHub-form jp-DCHub-mcp-form', () => options.onCall());
    this._fields = div('jp-DCHub-mcp-fields');
    this._button = button('jp-DCHub-mcp-call', 'Call tool', undefined, 'submit');
    this._form.append(field('Tool', this._select, WIDE_FIELD), this._fields, this._button);
    this._busy = hiddenDiv('jp-DCHub-mcp-busy', 'Working…', 'status');
    this._error = hiddenDiv('jp-DCHub-mcp-error', '', 'alert');
    this._result = hiddenDiv('jp-DCHub-mcp-result');
    this.addWidget(nodeRow('jp-DCHub-top', this._count, this._form, this._description, this._busy, this._error));
    this._showView = options.showView;

    this.grid = new TableGrid(this.model, { className: 'jp-DCHub-mcp-grid', label: 'Tool answer' });
    this._json = document.createElement('pre');
    this._json.className = 'jp-DCHub-mcp-json';
    this._json.hidden = true;
    layoutTableView(this.view, {
      head: [this._result, this._banner.node],
      grid: this.grid,
      bottom: [this._json, tableActions(this.kind, options.actions)]
    });
    this.grid.hide();

    this._view = { error: this._error, setBusy: (busy) => showBusy(this.node, this._busy, this._button, busy) };
  }

  get exportTitle(): string {
    return `DC Hub MCP tool ${this._last?.result.tool ?? ''}`.trim();
  }

  /** Whether the tool list has been loaded. */
  get loaded(): boolean {
    return this._tools.length > 0;
  }

  /** The selected tool's name. */
  get tool(): string {
    return this._select.value;
  }

  exportTable(): Table | null {
    return this._last?.table ?? null;
  }

  /** `hub.tool("name", arg=value, ...)` with the arguments of the last call. */
  pythonCall(): PythonCall | null {
    if (!this._last) return null;
    return { call: pythonCall('tool', this._lastArgs, [this._last.result.tool]), variable: 'answer' };
  }

  /** Loads the tool list once (concurrent calls share it). Never throws. */
  loadTools(): Promise<ToolInfo[]> {
    this._loading ??= this._load().finally(() => {
      this._loading = null;
    });
    return this._loading;
  }

  /** Selects a tool and fills its form (values by argument name). */
  async fill(tool: string, values: Record<string, string | boolean> = {}): Promise<void> {
    await this.loadTools();
    if (!this._tools.some((t) => t.name === tool)) return;
    this._select.value = tool;
    this._renderForm();
    fillControls(this._fields, values, ARG);
  }

  /** Calls the selected tool with the form's arguments. Never throws. */
  async call(): Promise<ToolResult | null> {
    return runBusy(this._view, async () => {
      const tool = this._tools.find((t) => t.name === this._select.value);
      if (!tool) throw new Error('Choose a tool first.');
      const args = toolArgs(tool.inputSchema, this._values());
      const mcp = await this._connection.mcp();
      const result = await mcp.callTool(tool.name, args);
      // The tool's own error in its words, with the names, hint and example it suggests (core's rule).
      const refused = toolRefusal(result);
      if (refused) throw refused;
      this._lastArgs = args;
      this._show(result);
      return result;
    });
  }

  updateTheme(): void {
    this.grid.updateTheme();
  }

  private async _load(): Promise<ToolInfo[]> {
    if (this._tools.length) return this._tools;
    await runBusy(this._view, async () => {
      const mcp = await this._connection.mcp();
      this._tools = (await mcp.listTools()).sort((a, b) => a.name.localeCompare(b.name));
      this._select.replaceChildren(...this._tools.map((t) => new Option(t.name, t.name)));
      this._count.dataset.count = String(this._tools.length);
      this._count.textContent = `${this._tools.length} tools`;
      this._renderForm();
    });
    return this._tools;
  }

  private _renderForm(): void {
    const tool = this._tools.find((t) => t.name === this._select.value);
    this._description.textContent = tool?.description ?? '';
    const schema = (tool?.inputSchema ?? {}) as { required?: string[] };
    const required = new Set(schema.required ?? []);
    const controls = Object.entries(schemaProperties(tool?.inputSchema)).map(([name, prop]) => {
      const label = `${name}${required.has(name) ? ' *' : ''}`;
      const kind = argControl(prop);
      const resolved = resolveArgSchema(prop);
      const named = `${ARG}${name}`;
      let control: FormControl;
      if (kind === 'boolean') control = checkbox(named);
      else if (kind === 'number') control = numberInput(named, scalarText(prop.default) ?? '');
      else if (kind === 'enum') control = select(named, ['', ...(resolved.enum ?? []).map(String)]);
      else if (kind === 'records') {
        const fields = recordFields(prop).join(',') || 'a,b';
        control = textArea(named, 3, `JSON list, or ${fields}; ${fields}`);
      } else control = textInput(named, kind === 'list' ? 'comma separated' : (scalarText(prop.default) ?? ''));
      control.title = prop.description ?? '';
      return field(
        label,
        control,
        kind === 'boolean' ? CHECK_FIELD : kind === 'records' ? WIDE_FIELD : 'jp-DCHub-field'
      );
    });
    this._fields.replaceChildren(...controls);
  }

  private _values(): Record<string, string | boolean> {
    return controlValues(this._fields, ARG);
  }

  private _show(result: ToolResult): void {
    const table = toolTable(result);
    // A list the server cut for this caller ("3 of 10") says it is partial and what opens the rest;
    // a call past an assumed daily allowance says so.
    this._banner.show(toolAnswerNotes(result));
    this._result.dataset.partial = String(result.partial);
    this._last = { result, table };
    this.view.title.label = `DC Hub tool: ${result.tool}`;
    this._showView(this.view);
    this._result.dataset.tool = result.tool;
    if (table && table.rows.length) {
      this.model.setTable(table);
      this.grid.show();
      this.grid.fitColumns();
      this._json.hidden = true;
      this._result.dataset.kind = 'table';
      this._result.dataset.rows = String(table.rows.length);
      this._result.textContent = `${result.tool}: ${table.rows.length} rows${result.fromCache ? ' (cached)' : ''}`;
    } else {
      this.model.setTable(null);
      this.grid.hide();
      this._json.textContent = typeof result.data === 'string' ? result.data : JSON.stringify(result.data, null, 2);
      this._json.hidden = false;
      this._result.dataset.kind = 'json';
      delete this._result.dataset.rows;
      this._result.textContent = `${result.tool}: answer${result.fromCache ? ' (cached)' : ''}`;
    }
    this._result.hidden = false;
  }
}

/** The `properties` of a tool's input schema (empty when it has none). */
function schemaProperties(schema: unknown): Record<string, ToolArgSchema> {
  const props = (schema as { properties?: unknown } | undefined)?.properties;
  return props && typeof props === 'object' && !Array.isArray(props) ? (props as Record<string, ToolArgSchema>) : {};
}
