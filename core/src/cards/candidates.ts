import { ValidationError } from '../errors.js';
import { FORMATS } from './values.js';

/**
 * Cards as RANK candidates: a range of site or project cards (`=DCHUB.RANK(A2#, ...)`) gives one
 * candidate per card, its `id` the candidate's id and its numeric properties the metrics — those of
 * nested cards under their dotted path (`fiber.connectivity_score`, as dot syntax names them).
 * Dates are not metrics; blanks (withheld or null) are left out, so a constraint on them fails.
 */

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether a cell value is an entity (a card), as Excel hands it to a function that accepts them. */
export const isCard = (v: unknown): v is Rec => isRec(v) && v.type === 'Entity';

const DATE_FORMATS = new Set<string>([FORMATS.date, FORMATS.dateTime]);
/** An empty cell: null or "" (Excel on the web), 0 (the desktop hands an empty cell of a range as 0). */
const blank = (v: unknown) => v === null || v === undefined || v === '' || v === 0;

function metrics(properties: unknown, prefix: string, out: Rec): void {
  if (!isRec(properties)) return;
  for (const [k, v] of Object.entries(properties)) {
    if (!isRec(v) || k === 'id') continue;
    if (v.type === 'Entity') metrics(v.properties, `${prefix}${k}.`, out);
    else if (
      (v.type === 'Double' || v.type === 'FormattedNumber') &&
      typeof v.basicValue === 'number' &&
      Number.isFinite(v.basicValue)
    ) {
      if (!DATE_FORMATS.has(String(v.numberFormat))) out[`${prefix}${k}`] = v.basicValue;
    }
  }
}

/** A card's id: its `id` property, else the text it shows. */
function idOf(card: Rec): string {
  const id = isRec(card.properties) ? card.properties.id : undefined;
  if (isRec(id) && typeof id.basicValue === 'string' && id.basicValue) return id.basicValue;
  return typeof card.text === 'string' ? card.text : '';
}

/**
 * The candidates of a range holding cards, or undefined when it holds none (a table with a header
 * row is read as before). Blank cells are skipped; anything else beside the cards is refused by name.
 */
export function cardCandidates(range: unknown, name = 'candidates'): Rec[] | undefined {
  if (!Array.isArray(range)) return undefined;
  const cells = (range as unknown[]).flatMap((row) => (Array.isArray(row) ? (row as unknown[]) : [row]));
  if (!cells.some(isCard)) return undefined;
  const out: Rec[] = [];
  for (const c of cells) {
    if (blank(c)) continue;
    if (!isCard(c))
      throw new ValidationError(
        name,
        'mixes cards with other values: give a range of site or project cards, or a table with a header row',
      );
    const rec: Rec = { id: idOf(c) };
    metrics(c.properties, '', rec);
    out.push(rec);
  }
  return out;
}
