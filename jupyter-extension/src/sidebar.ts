import { Panel, TabPanel, Widget } from '@lumino/widgets';
import type { Connection, ConnectionState } from './connection';
import { button, div, hiddenDiv, textInput, type TableSource } from './dom';
import { callsLeftText } from './helpers';

/** A sidebar tab of a feature: its form, what it exports, and what to do when first shown. */
export type SidebarSection = Widget & TableSource & { updateTheme?: () => void; onShown?: () => void };

/** A launcher button of the sidebar: opens a view through a command. */
export interface LauncherItem {
  label: string;
  caption: string;
  run: () => void;
}

/**
 * The DC Hub sidebar: a connection line (relay or direct, key present, calls left today), the
 * masked key field when calling the service directly, a launcher row that opens the main-area
 * views, and one tab per feature (its form; results open in the main area). Features add their
 * tabs (`addSection`); tab labels wrap instead of being cut at narrow widths.
 */
export class DchubSidebar extends Panel {
  readonly tabs: TabPanel;

  private readonly _connection: Connection;
  private readonly _status: HTMLElement;
  private readonly _quota: HTMLElement;
  private readonly _launcher: HTMLElement;
  private readonly _keyForm: HTMLFormElement;
  private readonly _keyInput: HTMLInputElement;
  private readonly _keyForget: HTMLButtonElement;
  private readonly _unsubscribe: () => void;
  private readonly _sections: Array<{ section: SidebarSection; rank: number }> = [];
  private readonly _sources = new Map<string, TableSource>();
  private _resizeObserver: ResizeObserver | null;

  constructor(options: { connection: Connection }) {
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
    this._launcher = div('jp-DCHub-launcher');
    this._launcher.setAttribute('aria-label', 'Open a DC Hub view');
    top.node.append(header, this._status, this._quota, this._keyForm, this._launcher);
    this.addWidget(top);

    this.tabs = new TabPanel();
    this.tabs.addClass('jp-DCHub-tabs');
    this.tabs.currentChanged.connect((_, args) => {
      (args.currentWidget as SidebarSection | null)?.onShown?.();
      void this.updateQuota();
    });
    this.addWidget(this.tabs);
    // The tab panel lays its children out absolutely; re-measure whenever the flex layout
    // resizes it (the key form appearing, the sidebar being dragged).
    this._resizeObserver = new ResizeObserver(() => {
      if (!this.tabs.isVisible) return;
      // The labels wrap at narrow widths: give the tab bar the height of its rows, then re-fit.
      const bar = this.tabs.tabBar;
      const rows = `${Math.max(28, bar.contentNode.scrollHeight + 2)}px`;
      if (bar.node.style.minHeight !== rows) {
        bar.node.style.minHeight = rows;
        this.tabs.fit();
      }
      this.tabs.processMessage(Widget.ResizeMessage.UnknownSize);
    });
    this._resizeObserver.observe(this.tabs.node);

    this._unsubscribe = options.connection.onChange((state) => this._showConnection(state));
    this._showConnection(options.connection.state);
  }

  /**
   * Adds a feature's tab; tabs are ordered by rank, and the first one is shown (features start in
   * the order their dependencies resolve, not by rank).
   */
  addSection(section: SidebarSection, rank: number): void {
    this._sections.push({ section, rank });
    this._sections.sort((a, b) => a.rank - b.rank);
    const index = this._sections.findIndex((s) => s.section === section);
    this.tabs.insertWidget(index, section);
    if (index === 0) this.tabs.currentIndex = 0;
    this.addSource(section);
  }

  /** Registers a table source that is not a tab (a resource view), for export and insertion. */
  addSource(source: TableSource): void {
    this._sources.set(source.kind, source);
  }

  /** Adds a launcher button. */
  addLauncherItem(item: LauncherItem): void {
    const b = button('jp-DCHub-launch', item.label, item.run);
    b.title = item.caption;
    this._launcher.append(b);
  }

  /** The table source registered under `kind`. */
  section(kind: string): TableSource | undefined {
    return this._sources.get(kind);
  }

  /** The section on the visible tab. */
  get currentSection(): TableSource | undefined {
    return this._sections.find((s) => s.section === this.tabs.currentWidget)?.section;
  }

  /** Shows a section's tab. */
  showSection(kind: string): void {
    const s = this._sections.find((x) => x.section.kind === kind);
    if (s) this.tabs.currentWidget = s.section;
  }

  /** Shows the calls left today: the relay's ledger in relay mode, this browser's otherwise. */
  async updateQuota(): Promise<void> {
    const left = await this._connection.callsLeft();
    if (left === null) {
      this._quota.hidden = true;
      return;
    }
    this._quota.dataset.remaining = String(left.remaining);
    this._quota.dataset.shared = String(left.shared);
    this._quota.dataset.gateway = String(left.gatewayLine !== undefined);
    this._quota.textContent = callsLeftText(left);
    this._quota.hidden = false;
  }

  updateTheme(): void {
    for (const { section } of this._sections) section.updateTheme?.();
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
    const key = state.hasKey
      ? state.mode === 'proxy'
        ? 'server key'
        : 'key stored in this browser'
      : 'no key (preview tier)';
    this._status.textContent = `${state.serviceUrl} ${via} · ${key}`;
    this._keyForm.hidden = state.mode !== 'direct';
    this._keyForget.hidden = !state.hasKey;
    void this.updateQuota();
  }
}
