import { Panel, TabPanel, Widget } from '@lumino/widgets';
import { BriefsPanel } from './briefsPanel';
import type { Connection, ConnectionState } from './connection';
import { button, div, hiddenDiv, textInput, type SectionActions, type TableSource } from './dom';
import { QueuePanel, type SiteHandoff } from './queuePanel';
import { McpPanel } from './mcpPanel';
import { RankPanel } from './rankPanel';
import { SitePanel } from './sitePanel';

export interface SidebarOptions {
  connection: Connection;
  onSearch: () => void;
  onRefreshBriefs: () => void;
  onScoreSite: () => void;
  /** Queue row handed to the site scorer (the plugin fills the form and scores). */
  onHandoff: (site: SiteHandoff) => void;
  onRank: () => void;
  onCallTool: () => void;
  onLoadTools: () => void;
  actions: SectionActions;
}

/**
 * The DC Hub sidebar: a connection line (relay or direct, key present, calls left today), the
 * masked key field when calling the service directly, and tabs for the queue explorer, the
 * market briefs, the site score, the ranking and the MCP tools.
 */
export class DchubSidebar extends Panel {
  readonly queue: QueuePanel;
  readonly briefs: BriefsPanel;
  readonly site: SitePanel;
  readonly rank: RankPanel;
  readonly tools: McpPanel;
  readonly tabs: TabPanel;

  private readonly _connection: Connection;
  private readonly _status: HTMLElement;
  private readonly _quota: HTMLElement;
  private readonly _keyForm: HTMLFormElement;
  private readonly _keyInput: HTMLInputElement;
  private readonly _keyForget: HTMLButtonElement;
  private readonly _unsubscribe: () => void;
  private _resizeObserver: ResizeObserver | null;

  constructor(options: SidebarOptions) {
    super();
    this.id = 'dchub-panel';
    this.addClass('jp-DCHub-panel');
    this.title.caption = 'DC Hub';
    this._connection = options.connection;

    const top = new Widget();
    top.addClass('jp-DCHub-head');
    const header = document.createElement('header');
    header.className = 'jp-DCHub-header';
    const h2 = document.createElement('h2');
    h2.className = 'jp-DCHub-title';
    h2.textContent = 'DC Hub';
    header.append(h2);
    this._status = div('jp-DCHub-connection', 'Connecting…');
    this._quota = hiddenDiv('jp-DCHub-quota');

    // Direct mode only: the key is typed into a password field and kept in localStorage.
    this._keyForm = document.createElement('form');
    this._keyForm.className = 'jp-DCHub-keyform';
    this._keyForm.hidden = true;
    this._keyInput = textInput('api_key', 'DC Hub API key', 'password');
    this._keyInput.autocomplete = 'off';
    this._keyInput.setAttribute('aria-label', 'DC Hub API key');
    const save = button('jp-DCHub-key-save', 'Save key', undefined, 'submit');
    this._keyForget = button('jp-DCHub-key-forget', 'Forget key', () => {
      this._connection.setApiKey('');
    });
    this._keyForm.append(this._keyInput, save, this._keyForget);
    this._keyForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const key = this._keyInput.value;
      // The field is cleared at once so the key does not stay in the DOM.
      this._keyInput.value = '';
      this._connection.setApiKey(key);
    });
    top.node.append(header, this._status, this._quota, this._keyForm);
    this.addWidget(top);

    this.queue = new QueuePanel({
      connection: options.connection,
      onSearch: options.onSearch,
      onScoreSite: options.onHandoff,
      onRank: (candidates) => {
        this.rank.setCandidates(candidates);
        this.showSection('ranking');
      },
      actions: options.actions
    });
    this.briefs = new BriefsPanel({ connection: options.connection, onRefresh: options.onRefreshBriefs, actions: options.actions });
    this.site = new SitePanel({ connection: options.connection, onScore: options.onScoreSite, actions: options.actions });
    this.rank = new RankPanel({ connection: options.connection, onRank: options.onRank, actions: options.actions });
    this.tools = new McpPanel({ connection: options.connection, onCall: options.onCallTool, actions: options.actions });

    this.tabs = new TabPanel();
    this.tabs.addClass('jp-DCHub-tabs');
    this.tabs.addWidget(this.queue);
    this.tabs.addWidget(this.briefs);
    this.tabs.addWidget(this.site);
    this.tabs.addWidget(this.rank);
    this.tabs.addWidget(this.tools);
    this.tabs.currentChanged.connect((_, args) => {
      // Briefs load the first time their tab is shown.
      if (args.currentWidget === this.briefs && !this.briefs.loaded) options.onRefreshBriefs();
      // So does the MCP tool list.
      if (args.currentWidget === this.tools && !this.tools.loaded) options.onLoadTools();
      void this.updateQuota();
    });
    this.addWidget(this.tabs);
    // The tab panel lays its children out absolutely; re-measure whenever the flex layout
    // resizes it (the key form appearing, the sidebar being dragged).
    this._resizeObserver = new ResizeObserver(() => {
      if (this.tabs.isVisible) this.tabs.processMessage(Widget.ResizeMessage.UnknownSize);
    });
    this._resizeObserver.observe(this.tabs.node);

    this._unsubscribe = options.connection.onChange((state) => this._showConnection(state));
    this._showConnection(options.connection.state);
  }

  /** The section exporting under `kind` (queue, briefs, site-score). */
  section(kind: string): TableSource | undefined {
    return [this.queue, this.briefs, this.site, this.rank, this.tools].find((s) => s.kind === kind);
  }

  /** The section on the visible tab. */
  get currentSection(): TableSource {
    const w = this.tabs.currentWidget;
    const sections: Array<TableSource & Widget> = [this.briefs, this.site, this.rank, this.tools];
    return sections.find((s) => s === w) ?? this.queue;
  }

  /** Shows a section's tab. */
  showSection(kind: string): void {
    const s = this.section(kind);
    if (s instanceof Widget) this.tabs.currentWidget = s;
  }

  /** Shows the calls left today from the client's ledger. */
  async updateQuota(): Promise<void> {
    const left = await this._connection.callsLeft();
    if (left === null) {
      this._quota.hidden = true;
      return;
    }
    this._quota.dataset.remaining = String(left);
    this._quota.textContent = `${left} calls left today`;
    this._quota.hidden = false;
  }

  updateTheme(): void {
    this.queue.updateTheme();
    this.briefs.updateTheme();
    this.rank.updateTheme();
    this.tools.updateTheme();
  }

  dispose(): void {
    if (this.isDisposed) return;
    this._unsubscribe();
    this._resizeObserver?.disconnect();
    this._resizeObserver = null;
    super.dispose();
  }

  private _showConnection(state: ConnectionState): void {
    if (!state.serviceUrl) return; // still probing for the relay
    this._status.dataset.mode = state.mode;
    this._status.dataset.hasKey = String(state.hasKey);
    const via = state.mode === 'proxy' ? 'via the Jupyter server' : 'directly';
    const key = state.hasKey ? (state.mode === 'proxy' ? 'server key' : 'key stored in this browser') : 'no key (preview tier)';
    this._status.textContent = `${state.serviceUrl} ${via} · ${key}`;
    this._keyForm.hidden = state.mode !== 'direct';
    this._keyForget.hidden = !state.hasKey;
    void this.updateQuota();
  }
}
