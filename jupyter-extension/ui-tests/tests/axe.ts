/**
 * axe-core (npm `axe-core`) in the page: WCAG 2.0/2.1 A and AA rules on the panel's own nodes (the
 * sidebar, a result view), not on the rest of JupyterLab. Violations come back as short lines (rule,
 * impact, the first nodes' selectors) so a failing test says what to fix.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

const require = createRequire(__filename);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The rule sets the issue names: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: number;
  targets: string[];
}

/** Runs axe over the elements matching `include` (CSS selectors); the violations found. */
export async function axeViolations(page: Page, include: string[]): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(
    async ({ include, tags }) => {
      const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<AxeResults> } }).axe;
      interface AxeResults {
        violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }>;
      }
      const present = include.filter((s) => document.querySelector(s));
      if (!present.length) throw new Error(`axe: nothing matches ${include.join(', ')}`);
      const results = await axe.run(
        { include: present.map((s) => [s]) },
        { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }
      );
      return results.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.length,
        targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target))
      }));
    },
    { include, tags: WCAG_TAGS }
  );
}

/** One line per violation: `rule (impact) ×nodes: targets`. */
export const describeViolations = (violations: AxeViolation[]): string[] =>
  violations.map((v) => `${v.id} (${v.impact ?? '?'}) ×${v.nodes}: ${v.targets.join(' ')}`);
