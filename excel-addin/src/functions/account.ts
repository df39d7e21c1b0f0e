import { formula } from './load';

/**
 * Calls left today under your key (or keyless allowance); no call is spent.
 * @customfunction QUOTA
 * @returns Calls left today.
 */
export function quota(): Promise<number> {
  return formula(async ({ serviceClient }) => {
    const client = await serviceClient();
    return client.ledger ? client.ledger.remaining() : Infinity;
  });
}

/**
 * The CC-BY-4.0 attribution line to cite DC Hub data.
 * @customfunction CITATION
 * @returns The attribution text.
 */
export function citation(): Promise<string> {
  return formula(
    ({ DCPI_CITATION }) => `${DCPI_CITATION}. Data: DC Hub (dchub.cloud), CC-BY-4.0 — cite as "DC Hub, dchub.cloud".`,
  );
}
