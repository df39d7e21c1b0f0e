/**
 * The pane's Formulas section: every function of functions.json (the build's own metadata, so the
 * list is never out of date) with its arguments, its description and an example that the Insert
 * button writes into the active cell; first, whether this Excel shows the card functions' cards.
 */
import { cardSupport, cardSupportText } from '../shared/card-support';

/** What the section needs of a functions.json entry. */
export interface FunctionMeta {
  id: string;
  description?: string;
  parameters: Array<{ name: string; optional?: boolean; description?: string }>;
  result?: { dimensionality?: string };
  options?: { stream?: boolean };
}

export const NAMESPACE = 'DCHUB';

/** One example per function id: what a first-time user can insert and see answer. */
export const EXAMPLES: Readonly<Record<string, string>> = {
  SITESCORE: '=DCHUB.SITESCORE(39.04,-77.49,100)',
  QUEUE: '=DCHUB.QUEUE("PJM,MISO",200,36)',
  RANK: '=DCHUB.RANK(A1:E10,"overall_score:1,fiber_km:-1")',
  CHAIN: '=DCHUB.CHAIN("ERCOT",100,40,"overall_score:1,fiber_km:-1",3)',
  BRIEFS: '=DCHUB.BRIEFS()',
  BRIEF: '=DCHUB.BRIEF("northern-virginia")',
  DCPI: '=DCHUB.DCPI("dallas")',
  AICAPACITY: '=DCHUB.AICAPACITY(90)',
  MARKETS: '=DCHUB.MARKETS()',
  MARKET: '=DCHUB.MARKET("dallas","stats.facility_count")',
  COMPARE: '=DCHUB.COMPARE("dallas,phoenix")',
  FACILITIES: '=DCHUB.FACILITIES("dallas","US",10)',
  DEALS: '=DCHUB.DEALS(10,"acquisition")',
  PIPELINE: '=DCHUB.PIPELINE()',
  PRICE: '=DCHUB.PRICE("TX")',
  STATS: '=DCHUB.STATS()',
  PARCEL: '=DCHUB.PARCEL(A1,100,"total_acres")',
  NEWS: '=DCHUB.NEWS(5)',
  FUELMIX: '=DCHUB.FUELMIX("ERCOT")',
  TOOL: '=DCHUB.TOOL("get_market_dcpi_rank","market_slug=dallas")',
  QUOTA: '=DCHUB.QUOTA()',
  CITATION: '=DCHUB.CITATION()',
  MARKETCARD: '=DCHUB.MARKETCARD("dallas")',
  MARKETCARDS: '=DCHUB.MARKETCARDS("BUILD",10)',
  SITECARD: '=DCHUB.SITECARD(39.04,-77.49,100)',
  QUEUECARDS: '=DCHUB.QUEUECARDS("PJM,MISO",200,36)',
};

/** Functions that answer cards (a table where Excel has none). */
const CARDS: Readonly<Record<string, string>> = {
  MARKETCARD: 'one card',
  SITECARD: 'one card',
  MARKETCARDS: 'a column of cards',
  QUEUECARDS: 'a column of cards',
};

/** `DCHUB.QUEUE(iso, [min_mw], …)`: the signature as Excel's formula tip shows it. */
export const signature = (f: FunctionMeta): string =>
  `${NAMESPACE}.${f.id}(${f.parameters.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(', ')})`;

/** What a result looks like in the grid. */
export const shape = (f: FunctionMeta): string =>
  CARDS[f.id] ??
  (f.options?.stream
    ? 'spills, refreshed every 5 minutes'
    : f.result?.dimensionality === 'matrix'
      ? 'spills a table'
      : 'one value');

/** Writes a formula into the active cell (Excel.run). */
export async function insertIntoActiveCell(
  run: <T>(batch: (ctx: Excel.RequestContext) => Promise<T>) => Promise<T>,
  formula: string,
): Promise<string> {
  return run(async (context) => {
    const cell = context.workbook.getActiveCell();
    cell.formulas = [[formula]];
    cell.load('address');
    await context.sync();
    return cell.address;
  });
}

/** Renders the list into `host`; each Insert button calls `onInsert(example)`. */
export function renderFormulas(
  host: HTMLElement,
  functions: readonly FunctionMeta[],
  onInsert: (formula: string, id: string) => void,
): void {
  const cards = document.createElement('p');
  cards.id = 'cardSupport';
  cards.className = 'dchub-muted';
  cards.textContent = cardSupportText(cardSupport());
  host.replaceChildren(
    cards,
    ...functions.map((f) => {
      const item = document.createElement('article');
      item.className = 'dchub-formula';
      item.dataset.id = f.id;
      const head = document.createElement('div');
      head.className = 'dchub-formula-head';
      const sig = document.createElement('code');
      sig.textContent = signature(f);
      const insert = document.createElement('fluent-button');
      insert.setAttribute('size', 'small');
      insert.setAttribute('aria-label', `Insert ${f.id}`);
      insert.textContent = 'Insert';
      const example = EXAMPLES[f.id] ?? `=${NAMESPACE}.${f.id}()`;
      insert.addEventListener('click', () => onInsert(example, f.id));
      head.append(sig, insert);
      const about = document.createElement('p');
      about.textContent = `${f.description ?? ''} (${shape(f)})`;
      const args = document.createElement('p');
      args.className = 'dchub-muted';
      args.textContent = f.parameters.map((p) => `${p.name}: ${p.description ?? ''}`).join(' · ');
      const ex = document.createElement('p');
      const exCode = document.createElement('code');
      exCode.textContent = example;
      ex.append('Example: ', exCode);
      item.append(head, about, ...(f.parameters.length ? [args] : []), ex);
      return item;
    }),
  );
}
