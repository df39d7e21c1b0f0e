import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core (npm `axe-core`) in the task pane: WCAG 2.0/2.1 A and AA rules over the pane's document,
 * the Fluent components' open shadow roots included. Violations come back as short lines (rule,
 * impact, the first nodes' selectors) so a failing test says what to fix.
 */
const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: number;
  targets: string[];
  /** The first node's HTML and what axe says of it. */
  summary: string;
}

/** Runs axe over the page (or the elements matching `include`); the violations found. */
export async function axeViolations(page: Page, include?: string): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object')))
    await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(
    async ({ include, tags }) => {
      const axe = (window as any).axe;
      const results = await axe.run(include ? { include: [[include]] } : document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return (results.violations as any[]).map((v) => ({
        id: v.id as string,
        impact: v.impact as string | null,
        nodes: v.nodes.length as number,
        targets: (v.nodes as any[]).slice(0, 3).map((n) => JSON.stringify(n.target)),
        summary: `${v.nodes[0]?.html ?? ''} ${v.nodes[0]?.failureSummary ?? ''}`.replace(/\s+/g, ' ').slice(0, 300),
      }));
    },
    { include, tags: WCAG_TAGS },
  );
}

/** One line per violation: `rule (impact) ×nodes: targets`. */
export const describeViolations = (violations: AxeViolation[]): string[] =>
  violations.map((v) => `${v.id} (${v.impact ?? '?'}) ×${v.nodes}: ${v.targets.join(' ')} — ${v.summary}`);
