import type { Connection } from './connection';
import type { SectionActions } from './dom';
import type { IDchubCharts } from './tokens';
import type { ResultView } from './views';

/** What every section of the panel is built with (the plugins make it once: plugins/common.ts). */
export interface SectionOptions {
  connection: Connection;
  /** Puts the section's result view in the main area. */
  showView: (view: ResultView) => void;
  /** The export and notebook buttons of its tables. */
  actions: SectionActions;
  /** Draws its charts and maps (null: tables and cards only). */
  charts: IDchubCharts | null;
}
