import { Panel, Widget } from '@lumino/widgets';
import { LabIcon } from '@jupyterlab/ui-components';

/**
 * A result view in the main area (a grid with its summary, citation and actions). The view is
 * owned by its feature and outlives its tab: closing the tab detaches the view, and the next
 * result opens it again.
 */
export class ResultView extends Panel {
  constructor(
    readonly viewId: string,
    title: string,
    caption = title
  ) {
    super();
    this.id = `dchub-view-${viewId}`;
    this.addClass('jp-DCHub-view');
    this.addClass(`jp-DCHub-view-${viewId}`);
    this.title.label = title;
    this.title.caption = caption;
  }
}

/** The dock-panel tab that hosts a ResultView; closing it gives the view back to its owner. */
class ViewHost extends Panel {
  constructor(
    readonly view: ResultView,
    icon: LabIcon
  ) {
    super();
    this.id = `${view.id}-tab`;
    this.addClass('jp-DCHub-viewhost');
    this.title.label = view.title.label;
    this.title.caption = view.title.caption;
    this.title.icon = icon;
    this.title.closable = true;
    this.addWidget(view);
    view.title.changed.connect(() => {
      this.title.label = view.title.label;
      this.title.caption = view.title.caption;
    });
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.view.parent = null; // the view lives on; only the tab goes
    super.dispose();
  }
}

/** Puts views in the main area: one tab per view, several at once, docked (beside the documents) and resizable. */
export class ViewManager {
  private readonly _hosts = new Map<string, ViewHost>();

  constructor(
    private readonly _shell: {
      add(widget: Widget, area: 'main', options?: { mode?: string; ref?: string; activate?: boolean }): void;
      activateById(id: string): void;
    },
    private readonly _icon: LabIcon
  ) {}

  /** Shows `view` in its tab (opened in the main area when needed) and activates it. */
  show(view: ResultView, activate = true): void {
    let host = this._hosts.get(view.viewId);
    if (!host || host.isDisposed || !host.isAttached) {
      host?.dispose();
      host = this._open(view, activate);
    }
    if (activate) this._shell.activateById(host.id);
  }

  /** A new tab for `view`: the shell owns it; it is known here until it is disposed. */
  private _open(view: ResultView, activate: boolean): ViewHost {
    const host = new ViewHost(view, this._icon);
    host.disposed.connect(() => {
      if (this._hosts.get(view.viewId) === host) this._hosts.delete(view.viewId);
    });
    // The first view docks beside the documents; the next ones are tabs next to it.
    const sibling = [...this._hosts.values()].find((h) => !h.isDisposed && h.isAttached);
    this._hosts.set(view.viewId, host);
    this._shell.add(
      host,
      'main',
      sibling ? { mode: 'tab-after', ref: sibling.id, activate } : { mode: 'split-right', activate }
    );
    return host;
  }

  /** Whether the view is open in a tab. */
  isOpen(viewId: string): boolean {
    const host = this._hosts.get(viewId);
    return !!host && !host.isDisposed && host.isAttached;
  }
}

/** A sidebar section's tab: the classes every section has and its own, and its title. */
export function sectionTab(section: Widget, className: string, label: string, caption: string): void {
  section.addClass('jp-DCHub-section');
  section.addClass(className);
  section.title.label = label;
  section.title.caption = caption;
}

/** Nodes in a widget of their own: `jp-DCHub-top` for a form or a summary, `jp-DCHub-bottom` for the actions. */
export function nodeRow(className: 'jp-DCHub-top' | 'jp-DCHub-bottom', ...nodes: Node[]): Widget {
  const row = new Widget();
  row.addClass(className);
  row.node.append(...nodes);
  return row;
}

/**
 * A table view's parts, top to bottom: the head (summary lines, banner, chart switch, filter), the grid, the charts'
 * area, and the bottom (the table's actions and its citation).
 */
export function layoutTableView(
  view: ResultView,
  parts: { head: Node[]; grid: Widget; charts?: Widget; bottom: Node[] }
): void {
  view.addWidget(nodeRow('jp-DCHub-top', ...parts.head));
  view.addWidget(parts.grid);
  if (parts.charts) view.addWidget(parts.charts);
  view.addWidget(nodeRow('jp-DCHub-bottom', ...parts.bottom));
}
