/**
 * What the pane adds to Fluent's components for assistive technology and the keyboard:
 * - every text input's own inner control named by its field's label (Fluent names the host, not the
 *   `<input>` inside its shadow root, unless text is slotted into it);
 * - a disabled button says so (`aria-disabled`), as its internals do, where axe and older readers look;
 * - a Fluent radio carries no `aria-posinset`/`aria-setsize` attributes of its own: its role is set through its
 *   internals, where the attributes are not allowed on the bare element (axe aria-allowed-attr); the browser counts
 *   the radios of a group itself;
 * - arrow keys move between the section tabs (Fluent's tablist) and Escape closes what is open: an
 *   expanded accordion item (focus back on its heading), the map's tooltip.
 */

/** Slots each field's label text into its text input (visually hidden there): the inner `<input>` gets its name. */
export function labelTextInputs(root: ParentNode = document): void {
  for (const field of root.querySelectorAll('fluent-field')) {
    const label = field.querySelector<HTMLLabelElement>('label[slot="label"]');
    const input = field.querySelector<HTMLElement>('fluent-text-input[slot="input"]');
    if (!label || !input || input.querySelector('.dchub-sr-label')) continue;
    const span = document.createElement('span');
    span.className = 'dchub-sr-label';
    span.textContent = label.textContent?.trim() ?? '';
    input.append(span);
  }
}

/** Keeps `aria-disabled` on every Fluent button in step with its `disabled` attribute. */
export function mirrorDisabled(root: HTMLElement = document.body): void {
  const sync = (el: Element) => {
    if (el.localName !== 'fluent-button') return;
    if (el.hasAttribute('disabled')) el.setAttribute('aria-disabled', 'true');
    else el.removeAttribute('aria-disabled');
  };
  root.querySelectorAll('fluent-button').forEach(sync);
  new MutationObserver((records) => records.forEach((r) => sync(r.target as Element))).observe(root, {
    attributes: true,
    attributeFilter: ['disabled'],
    subtree: true,
  });
}

/** Drops the position attributes Fluent's radio group writes on its radios (see above), now and as they come. */
export function dropRadioPositions(root: HTMLElement = document.body): void {
  const ATTRS = ['aria-posinset', 'aria-setsize'];
  const strip = (el: Element) => {
    if (el.localName === 'fluent-radio') for (const a of ATTRS) if (el.hasAttribute(a)) el.removeAttribute(a);
  };
  root.querySelectorAll('fluent-radio').forEach(strip);
  new MutationObserver((records) => records.forEach((r) => strip(r.target as Element))).observe(root, {
    attributes: true,
    attributeFilter: ATTRS,
    subtree: true,
  });
}

/** Escape closes the expanded accordion item around the focus (focus back on its heading), or the map's tooltip. */
export function escapeCloses(): void {
  document.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Escape') return;
    const tooltip = document.getElementById('vg-tooltip-element');
    if (tooltip?.classList.contains('visible')) {
      tooltip.classList.remove('visible');
      ev.preventDefault();
      return;
    }
    const active = document.activeElement;
    const item = active?.closest<HTMLElement & { expanded?: boolean }>('fluent-accordion-item');
    if (item?.expanded) {
      item.expanded = false;
      (item.shadowRoot?.querySelector<HTMLElement>('button') ?? item).focus();
      ev.preventDefault();
    }
  });
}

/** Everything above, once the pane's components are defined. */
export function initPaneA11y(): void {
  labelTextInputs();
  mirrorDisabled();
  dropRadioPositions();
  escapeCloses();
}
