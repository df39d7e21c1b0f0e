/** Small value helpers shared by the derivations. */

/** Deep equality of JSON values (member order ignored; `undefined` members count as absent). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameJson(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => Object.hasOwn(bo, k) && sameJson(ao[k], bo[k]));
}

/**
 * A gated preview (spec §5.3) or an answer that says some parameters or fields were not applied:
 * it answers nothing but itself.
 */
export function isPreview(a: unknown): boolean {
  if (!a || typeof a !== 'object') return false;
  const o = a as Record<string, unknown>;
  return (
    o._gated === true ||
    o._preview_only === true ||
    o._preview_params_not_applied !== undefined ||
    o._locked_fields !== undefined
  );
}
