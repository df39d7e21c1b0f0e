import { previewSentence, type PreviewInfo } from '../preview.js';
import {
  dateOfTime,
  text,
  withMetadata,
  type CardHost,
  type CardSection,
  type Attribution,
  type CardValue,
  type EntityValue,
} from './values.js';

/**
 * One card (an Excel entity value) from its properties and a layout stated once per kind: the title
 * is the `name` property, the subtitle `summary`, a first untitled section with the headline
 * numbers (two columns where ExcelApi 1.19 allows it), then titled sections. Only properties the
 * card has are named in its layout (Excel shows #VALUE! for a layout naming a missing one).
 */

/** How the answer behind a card was obtained, and what the host supports. */
export interface CardContext {
  host: CardHost;
  /** When the answer was fetched (ms since 1970): the card's `as_of`. */
  retrievedAt?: number;
  /**
   * One line when the answer was served from the cache after a failure, e.g. "cached 3 h ago (09:14), service error".
   */
  stale?: string;
  /** What a gated preview withholds. */
  preview?: PreviewInfo;
}

export interface SectionSpec {
  title?: string;
  properties: readonly string[];
  /** Table for rows of like values; List otherwise. */
  layout?: 'List' | 'Table';
  /** The headline numbers: two columns at ExcelApi 1.19. */
  headline?: boolean;
  collapsed?: boolean;
}

export interface EntitySpec {
  /** What the cell shows. */
  text: string;
  /** One of Excel's EntityCompactLayoutIcons. */
  icon: string;
  properties: Record<string, CardValue>;
  sections: readonly SectionSpec[];
  /** A top-level card names DC Hub as its provider; a nested one does not repeat it. */
  provider?: boolean;
}

export const DCHUB_PROVIDER = { description: 'DC Hub', logoTargetAddress: 'https://dchub.cloud' } as const;

/** Excel's own limit on what a cell shows is 32,767 characters; a card's text is a label, kept short. */
const MAX_CARD_TEXT = 255;

export function entity(spec: EntitySpec, host: CardHost): EntityValue {
  const has = (p: string) => Object.prototype.hasOwnProperty.call(spec.properties, p);
  const sections: CardSection[] = [];
  for (const s of spec.sections) {
    const properties = s.properties.filter(has);
    if (!properties.length) continue;
    sections.push({
      layout: s.headline && host.excelApi119 ? 'TwoColumn' : (s.layout ?? 'List'),
      properties,
      ...(s.title ? { title: s.title } : {}),
      ...(s.collapsed ? { collapsed: true } : {}),
    });
  }
  const label = spec.text.length > MAX_CARD_TEXT ? `${spec.text.slice(0, MAX_CARD_TEXT - 1)}…` : spec.text;
  return {
    type: 'Entity',
    text: label,
    properties: spec.properties,
    layouts: {
      card: { title: { property: 'name' }, ...(has('summary') ? { subTitle: { property: 'summary' } } : {}), sections },
      compact: { icon: spec.icon },
    },
    ...(spec.provider ? { provider: { ...DCHUB_PROVIDER } } : {}),
  };
}

/** The card's `id` (what RANK takes as a candidate's id): for dot syntax and RANK, not shown on the card. */
export const idValue = (id: string): CardValue => withMetadata(text(id), { excludeFrom: { cardView: true } });

/** A subtitle that says when the card is a preview or was served stale. */
export function summaryOf(base: string, ctx: CardContext): string {
  return `${ctx.preview ? 'Preview · ' : ''}${base}${ctx.stale ? ' · stale (cached)' : ''}`;
}

/** The closing properties of every card: when it was fetched, how (stale), what a preview withholds. */
export function provenanceProperties(ctx: CardContext): Record<string, CardValue> {
  return {
    ...(ctx.retrievedAt !== undefined ? { as_of: dateOfTime(ctx.retrievedAt, ctx.host) } : {}),
    ...(ctx.stale ? { stale: text(ctx.stale) } : {}),
    ...(ctx.preview ? { preview: text(previewSentence(ctx.preview)) } : {}),
  };
}

/** The last section of every top-level card. */
export const SOURCE_SECTION = (properties: readonly string[]): SectionSpec => ({
  title: 'Source',
  properties: [...properties, 'as_of', 'stale', 'preview'],
});

/** `Retrieved 2026-11-21` for a citation, when the fetch time is known. */
export const retrieved = (ctx: CardContext): string =>
  ctx.retrievedAt !== undefined ? ` Retrieved ${new Date(ctx.retrievedAt).toISOString().slice(0, 10)}.` : '';

/** A top-level card (a queue project, a market, a site): what differs by kind; the rest is `topCard`'s. */
export interface TopCardSpec {
  text: string;
  icon: string;
  /** What RANK and dot syntax take as the card's id. */
  id: string;
  name: string;
  /** The subtitle; `topCard` adds "Preview" and "stale" as the context says. */
  summary: string;
  properties: Record<string, CardValue>;
  /** The citation up to its full stop; the retrieval date follows it. */
  citation: string;
  attribution?: Attribution[];
  /** Properties after the citation (a link), then the provenance. */
  after?: Record<string, CardValue>;
  sections: readonly SectionSpec[];
  /** The Source section's own properties (the provenance's follow). */
  source: readonly string[];
}

/** A top-level card: id, name, summary, its properties, the citation and the provenance, DC Hub as provider. */
export function topCard(spec: TopCardSpec, ctx: CardContext): EntityValue {
  const citation = text(`${spec.citation}${retrieved(ctx)}`);
  return entity(
    {
      text: spec.text,
      icon: spec.icon,
      provider: true,
      properties: {
        id: idValue(spec.id),
        name: text(spec.name),
        summary: text(summaryOf(spec.summary, ctx)),
        ...spec.properties,
        citation: spec.attribution ? withMetadata(citation, { attribution: spec.attribution }) : citation,
        ...spec.after,
        ...provenanceProperties(ctx),
      },
      sections: [...spec.sections, SOURCE_SECTION(spec.source)],
    },
    ctx.host,
  );
}
