import { answerNotes, isWarning, noteList, type AnswerNotes, type FetchMeta, type PreviewInfo } from '@dchub/core';
import { div } from './dom';

/** What each part of the banner shows (pure): core's notes as they are, its warnings as core lists them. */
export function bannerParts(notes: AnswerNotes): {
  explanations: string[];
  preview?: string;
  stale?: string;
  derived?: string;
  warnings: string[];
} {
  return {
    explanations: notes.explanations ?? [],
    preview: notes.preview,
    stale: notes.stale?.text,
    derived: notes.derived,
    warnings: noteList(notes)
      .filter(isWarning)
      .map((n) => n.text)
  };
}

/**
 * The banner over a view's grid, core's notes of the answer (`answerNotes`, in core's words): what
 * the service explains about it (a line each: ISOs a cut excluded, its hint, objectives not scored,
 * caveats), a gated preview's sentence, a stale answer's age and reason, an answer derived locally,
 * and the warnings (the allowance, a gateway's notice, named bad records) as a list. Data attributes
 * (`data-explanations`, `data-preview`, `data-stale`, `data-derived`, `data-warnings`) say what it
 * shows, for tests and styles; hidden when there is nothing to say.
 */
export class AnswerBanner {
  readonly node: HTMLDivElement;
  private readonly _explanations = document.createElement('ul');
  private readonly _preview = div('jp-DCHub-banner-preview');
  private readonly _stale = div('jp-DCHub-banner-stale');
  private readonly _derived = div('jp-DCHub-banner-derived');
  private readonly _warnings = document.createElement('ul');
  private _notes: AnswerNotes = { warnings: [] };

  constructor(className = '') {
    this.node = div(`jp-DCHub-banner ${className}`.trim());
    this.node.setAttribute('role', 'note');
    this._warnings.className = 'jp-DCHub-banner-warnings';
    this._explanations.className = 'jp-DCHub-banner-explanations';
    this.node.append(this._explanations, this._preview, this._stale, this._derived, this._warnings);
    this.clear();
  }

  /** What the banner shows now. */
  get notes(): AnswerNotes {
    return this._notes;
  }

  /** Shows the notes of an answer made of these fetched parts (see `answerNotes`). */
  showMeta(metas: ReadonlyArray<FetchMeta | undefined>, preview?: PreviewInfo): void {
    this.show(answerNotes(metas, preview));
  }

  show(notes: AnswerNotes): void {
    this._notes = notes;
    const put = (el: HTMLElement, text: string | undefined) => {
      el.textContent = text ?? '';
      el.hidden = !text;
    };
    const parts = bannerParts(notes);
    put(this._preview, parts.preview);
    put(this._stale, parts.stale);
    put(this._derived, parts.derived);
    // Text nodes only: nothing from an answer is markup.
    const items = (lines: readonly string[]) =>
      lines.map((text) => Object.assign(document.createElement('li'), { textContent: text }));
    this._explanations.replaceChildren(...items(parts.explanations));
    this._explanations.hidden = parts.explanations.length === 0;
    this._warnings.replaceChildren(...items(parts.warnings));
    this._warnings.hidden = parts.warnings.length === 0;
    const d = this.node.dataset;
    d.explanations = String(parts.explanations.length);
    d.preview = String(!!notes.preview);
    d.stale = String(!!notes.stale);
    d.derived = String(!!notes.derived);
    d.warnings = String(notes.warnings.length);
    if (notes.stale) d.staleReason = notes.stale.reason;
    else delete d.staleReason;
    this.node.hidden =
      !notes.preview &&
      !notes.stale &&
      !notes.derived &&
      notes.warnings.length === 0 &&
      parts.explanations.length === 0;
  }

  clear(): void {
    this.show({ warnings: [] });
  }
}
