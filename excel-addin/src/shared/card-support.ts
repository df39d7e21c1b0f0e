/**
 * Whether the Excel running the add-in shows cards (entity values), from its requirement sets at
 * run time: CustomFunctionsRuntime 1.4 for cards at all (not perpetual Office, not iPad, not builds
 * before 2208), ExcelApi 1.19 for number formats on doubles and two-column card sections. The card
 * functions and the pane's Formulas tab both ask here.
 */
export type CardSupport = 'formatted' | 'cards' | 'none';

type Requirements = { isSetSupported(name: string, minVersion?: string): boolean };

export function cardSupport(): CardSupport {
  const req = (globalThis as { Office?: { context?: { requirements?: Requirements } } }).Office?.context?.requirements;
  try {
    if (!req?.isSetSupported('CustomFunctionsRuntime', '1.4')) return 'none';
    return req.isSetSupported('ExcelApi', '1.19') ? 'formatted' : 'cards';
  } catch {
    return 'none'; // Office not ready: a table, never a card Excel cannot show
  }
}

/** What the pane says about it. */
export function cardSupportText(s: CardSupport): string {
  if (s === 'formatted')
    return 'This Excel shows cards: the card functions return one cell per record, opened with a click, fields by dot syntax (=A1.composite_score).';
  if (s === 'cards')
    return 'This Excel shows cards (=A1.composite_score), with numbers formatted the older way (ExcelApi 1.19 adds two-column sections).';
  return 'This Excel has no cards (it lacks CustomFunctionsRuntime 1.4: perpetual Office, iPad or a build before 2208): the card functions answer tables instead.';
}
