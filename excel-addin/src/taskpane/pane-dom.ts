/** The pane's DOM plumbing shared by its tabs: elements by id, status lines, the button runner's shape. */

/** A Fluent text input, switch, button or progress bar: the properties the pane uses. */
export type Control = HTMLElement & { value: string; placeholder: string; disabled: boolean; checked: boolean };
export type Progress = HTMLElement & {
  value: number;
  max: number;
  validationState: 'success' | 'warning' | 'error' | null;
};

export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
export const input = (id: string) => $<Control>(id);
export const say = (id: string, text: string) => {
  $(id).textContent = text;
};
export const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Runs `fn` on a click of `buttonId`, its outcome on the `statusId` line (pane.ts's `action`). */
export type Action = (buttonId: string, statusId: string, fn: () => Promise<string>) => void;
