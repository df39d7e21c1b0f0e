/** The Chain tab: a queue → score → rank run, its worst-case cost told before it spends a call. */
import type { ChainCost } from '@dchub/core';
import { objectivesArg } from '../functions/args';
import { serviceClient } from '../functions/service';
import { estimateChain, runChainToSheet, type ChainPlan } from './actions';
import { $, input, say, type Action, type Control, type Progress } from './pane-dom';

function chainPlan(): ChainPlan {
  const num = (id: string) => (input(id).value.trim() === '' ? undefined : Number(input(id).value));
  return {
    filters: { iso: input('chainIso').value || undefined, min_mw: num('chainMinMw'), max_ttp_months: num('chainTtp') },
    objectives: objectivesArg(input('chainObjectives').value),
    top_k: num('chainTopK'),
    maxSites: Math.max(1, Math.min(50, num('chainMaxSites') ?? 8)),
  };
}

const costText = (c: ChainCost) =>
  `Up to ${c.worstCase} calls (1 queue + one score per site + 1 ranking; cached answers are free). ` +
  (c.remaining === undefined ? '' : `${c.remaining} left today. `) +
  (c.affordable ? '' : 'More than you have left: the run scores fewer sites.');

async function estimate(): Promise<string> {
  const c = await estimateChain(await serviceClient(), chainPlan());
  say('chainCost', costText(c));
  $<Control>('chainRun').disabled = c.remaining === 0;
  return '';
}

async function runChainWizard(): Promise<string> {
  const plan = chainPlan();
  const client = await serviceClient();
  say('chainCost', costText(await estimateChain(client, plan)));
  const bar = $<Progress>('chainProgress');
  bar.hidden = false;
  bar.value = 0;
  try {
    const r = await runChainToSheet(client, plan, (p) => {
      const steps = plan.maxSites + 2;
      const done = p.step === 'queue' ? 0 : p.step === 'score' ? 1 + p.done : p.step === 'rank' ? steps - 1 : steps;
      bar.value = done / steps;
      say('chainStatus', p.message);
    });
    return `Wrote ${r.rows} ranked sites to "${r.sheet}" (${r.scored} scored, ${r.callsSpent} calls).`;
  } finally {
    bar.hidden = true;
  }
}

/** Wires the Estimate and Run buttons. */
export function initChainTab(action: Action): void {
  action('chainEstimate', 'chainStatus', estimate);
  action('chainRun', 'chainStatus', runChainWizard);
}
