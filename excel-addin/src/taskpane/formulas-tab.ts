/** The Formulas tab: every DCHUB formula, inserted into the active cell on a click. */
import { excelRun } from './actions';
import { insertIntoActiveCell, renderFormulas, type FunctionMeta } from './formulas';
import { $, message, say } from './pane-dom';

/** The Formulas section, from the build's functions.json. */
export async function showFormulas(): Promise<void> {
  try {
    const meta = (await (await fetch('functions.json')).json()) as { functions: FunctionMeta[] };
    renderFormulas($('formulaList'), meta.functions, (formula, id) => {
      say('formulaStatus', 'Working…');
      insertIntoActiveCell(excelRun, formula).then(
        (address) => say('formulaStatus', `Inserted ${id} in ${address}.`),
        (err) => say('formulaStatus', message(err)),
      );
    });
  } catch (err) {
    say('formulaStatus', `Cannot list the formulas: ${message(err)}`);
  }
}
