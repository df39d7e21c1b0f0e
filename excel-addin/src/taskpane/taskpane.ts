/**
 * The task pane's entry: tiny, so that the shared runtime's page (which also loads functions.js)
 * starts fast; the pane itself (Fluent UI, the workbook code) is a chunk that shares core with the
 * formulas' engine chunk, so each byte loads once.
 */
void import(/* webpackChunkName: "pane" */ './pane');
