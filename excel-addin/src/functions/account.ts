import { DCPI_CITATION } from '@dchub/core';
import { cellResult, serviceClient } from './service';

/**
 * Calls left today under your key (or keyless allowance); no call is spent.
 * @customfunction QUOTA
 * @helpurl https://dchub.cloud/docs/excel#quota
 * @returns Calls left today.
 */
export function quota(): Promise<number> {
  return cellResult(async () => {
    const client = await serviceClient();
    return client.ledger ? client.ledger.remaining() : Infinity;
  });
}

/**
 * The CC-BY-4.0 attribution line to cite DC Hub data.
 * @customfunction CITATION
 * @helpurl https://dchub.cloud/docs/excel#citation
 * @returns The attribution text.
 */
export function citation(): string {
  return `${DCPI_CITATION}. Data: DC Hub (dchub.cloud), CC-BY-4.0 — cite as "DC Hub, dchub.cloud".`;
}
