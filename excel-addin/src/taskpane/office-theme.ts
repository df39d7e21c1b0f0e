/**
 * The pane in Office's theme: Fluent's dark theme when Office is dark (Black or Dark Gray, or a dark
 * body colour where `isDarkTheme` is not given), the light one otherwise; and the colours a chart of
 * core takes (ChartTheme) read back from the Fluent tokens the pane then uses.
 */
import { setTheme } from '@fluentui/web-components/theme/set-theme.js';
import { webDarkTheme, webLightTheme } from '@fluentui/tokens';
import type { ChartTheme } from '@dchub/core/charts';

/** What the pane reads of `Office.context.officeTheme` (absent outside Office, and in older hosts). */
interface OfficeThemeLike {
  bodyBackgroundColor?: string;
  isDarkTheme?: boolean;
}

/** Relative luminance of a #rrggbb colour (0 black – 1 white); undefined for anything else. */
export function luminance(color: string): number | undefined {
  const m = /^#?([0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return undefined;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(m[1].slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Whether Office shows a dark theme. */
export function officeIsDark(theme: OfficeThemeLike | undefined): boolean {
  if (!theme) return false;
  if (typeof theme.isDarkTheme === 'boolean') return theme.isDarkTheme;
  const l = theme.bodyBackgroundColor ? luminance(theme.bodyBackgroundColor) : undefined;
  return l !== undefined && l < 0.2;
}

/** Office's theme, read where the host gives it. */
function currentOfficeTheme(): OfficeThemeLike | undefined {
  try {
    return (globalThis as { Office?: { context?: { officeTheme?: OfficeThemeLike } } }).Office?.context?.officeTheme;
  } catch {
    return undefined;
  }
}

/** Applies Fluent's light or dark theme to the pane as Office is; whether it is dark. */
export function applyOfficeTheme(): boolean {
  const dark = officeIsDark(currentOfficeTheme());
  setTheme(dark ? webDarkTheme : webLightTheme);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  return dark;
}

/** The chart colours of the pane's theme, from the Fluent tokens in force. */
export function paneChartTheme(): ChartTheme {
  const css = getComputedStyle(document.documentElement);
  const dark = document.documentElement.dataset.theme === 'dark';
  const v = (name: string, light: string, darkValue: string) =>
    css.getPropertyValue(name).trim() || (dark ? darkValue : light);
  const background = v('--colorNeutralBackground1', '#ffffff', '#292929');
  return {
    background,
    text: v('--colorNeutralForeground1', '#242424', '#ffffff'),
    muted: v('--colorNeutralForeground2', '#424242', '#d6d6d6'),
    axis: v('--colorNeutralStrokeAccessible', '#616161', '#adadad'),
    grid: v('--colorNeutralStroke2', '#e0e0e0', '#525252'),
    land: v('--colorNeutralBackground3', '#f5f5f5', '#141414'),
    border: v('--colorNeutralStroke1', '#d1d1d1', '#666666'),
    font: v('--fontFamilyBase', 'Segoe UI, sans-serif', 'Segoe UI, sans-serif'),
  };
}
