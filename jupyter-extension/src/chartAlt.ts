/**
 * Charts for everyone (issue 28): the colours core's charts take from JupyterLab's theme in force
 * (light, dark, high contrast — read from its `--jp-*` variables, so a theme of its own is followed
 * too), and a chart's "data table": the numbers behind it, reachable from the chart.
 */
import { chartTable, type ChartTheme, type VegaLiteSpec } from '@dchub/core/charts';
import { cellText } from './tableView';

/** The chart colours of JupyterLab's theme in force. */
export function jupyterChartTheme(root: Element = document.body): ChartTheme {
  const css = getComputedStyle(root);
  const dark = document.body.dataset.jpThemeLight === 'false';
  const v = (name: string, light: string, darkValue: string) =>
    css.getPropertyValue(name).trim() || (dark ? darkValue : light);
  return {
    background: v('--jp-layout-color0', '#ffffff', '#111111'),
    text: v('--jp-ui-font-color0', '#000000', '#ffffff'),
    muted: v('--jp-ui-font-color1', '#212121', '#e0e0e0'),
    axis: v('--jp-ui-font-color2', '#616161', '#bdbdbd'),
    grid: v('--jp-border-color2', '#e0e0e0', '#3a3a3a'),
    land: v('--jp-layout-color3', '#bdbdbd', '#424242'),
    border: v('--jp-layout-color0', '#ffffff', '#111111'),
    font: v('--jp-ui-font-family', 'system-ui, sans-serif', 'system-ui, sans-serif')
  };
}

/**
 * The chart's data table, folded under a "Data table" disclosure after the chart; its rows are
 * built when it is first opened (a map of a thousand points costs nothing until then).
 */
export function dataTableFor(spec: VegaLiteSpec): HTMLDetailsElement {
  const details = document.createElement('details');
  details.className = 'jp-DCHub-chart-table';
  const summary = document.createElement('summary');
  const t = chartTable(spec);
  summary.textContent = `Data table (${t.rows.length.toLocaleString('en-US')} rows)`;
  details.append(summary);
  details.addEventListener(
    'toggle',
    () => {
      if (!details.open || details.querySelector('table')) return;
      const table = document.createElement('table');
      const caption = table.createCaption();
      caption.textContent = t.caption;
      const head = table.createTHead().insertRow();
      for (const c of t.columns) {
        const th = document.createElement('th');
        th.scope = 'col';
        th.textContent = c;
        head.append(th);
      }
      const body = table.createTBody();
      for (const row of t.rows) {
        const tr = body.insertRow();
        for (const v of row) tr.insertCell().textContent = cellText(v ?? null);
      }
      // A wide table scrolls in a region a keyboard can reach.
      const region = document.createElement('div');
      region.className = 'jp-DCHub-chart-table-scroll jp-DCHub-scroll-region';
      region.tabIndex = 0;
      region.setAttribute('role', 'region');
      region.setAttribute('aria-label', `${t.caption}: data table`);
      region.append(table);
      details.append(region);
    },
    { passive: true }
  );
  return details;
}
