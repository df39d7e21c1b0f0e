// The Map tab's layout of core's specs for a task pane (no Vega needed to check it).
import { buildChart } from '@dchub/core/charts';
import { describe, expect, it } from 'vitest';
import { fitToPane, wrapText } from '../src/taskpane/map-layout';

const ROWS = [
  { queue_id: 'a', iso: 'PJM', fuel_type: 'Solar', capacity_mw: 100, lat: 39, lng: -77 },
  { queue_id: 'b', iso: 'ERCOT', fuel_type: 'Gas', capacity_mw: 300, lat: 31, lng: -97 },
  { queue_id: 'c', iso: 'ERCOT', fuel_type: 'Wind', capacity_mw: 50 },
];
const CITATION = 'Data: DC Hub (dchub.cloud), CC-BY-4.0 — cite as "DC Hub, dchub.cloud" (sandbox: synthetic)';

describe('the map laid out for the pane', () => {
  it('wraps text at word boundaries, every word kept, no line longer than asked (unless one word is)', () => {
    const text = 'Data as of 2026-11-16 · Data: DC Hub (dchub.cloud), CC-BY-4.0 — cite as "DC Hub, dchub.cloud"';
    const lines = wrapText(text, 24);
    expect(lines.join(' ')).toBe(text);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(24);
    expect(wrapText('a-very-long-single-word here', 5)).toEqual(['a-very-long-single-word', 'here']);
  });

  it('narrows the map to the pane with its height in proportion, wraps the footer, puts the legends under it; the data is core’s', async () => {
    const spec = await buildChart('queue_map', { rows: ROWS, asOf: '2026-11-16', citation: CITATION });
    const fitted = fitToPane(spec, 320);
    const [map, footer] = fitted.vconcat as Array<Record<string, any>>;
    const [before, footerBefore] = spec.vconcat as Array<Record<string, any>>;
    expect(before.width).toBe(640);
    expect([map.width, map.height]).toEqual([320, Math.round((before.height * 320) / 640)]);
    expect(map.layer).toBe(before.layer); // the same marks over the same data
    const words = (v: Record<string, any>) =>
      v.data.values
        .map((d: { text: string }) => d.text)
        .join(' ')
        .split(/\s+/);
    expect(words(footer)).toEqual(words(footerBefore));
    expect(footer.data.values.length).toBeGreaterThan(footerBefore.data.values.length);
    expect(footer.height).toBe(14 * footer.data.values.length);
    expect(words(footer).join(' ')).toContain('1 of 3 projects have no coordinates (not drawn).');
    expect((fitted.config as any).legend).toMatchObject({ orient: 'bottom', columns: 1 });
    expect(fitted.usermeta).toEqual(spec.usermeta);
    expect(fitToPane(spec, 800).vconcat).toEqual(
      (spec.vconcat as object[]).map((v) => expect.objectContaining({ width: (v as { width: number }).width })),
    );
  });
});
