/** Attribution and the synthetic-data label carried by every answer. */
export const SYNTHETIC_NOTICE =
  'SANDBOX: synthetic data generated from DCHUB_SEED; shapes follow the DC Hub interface, values are not real.';
export const SOURCE = 'DC Hub — dchub.cloud (sandbox, synthetic data)';
export const CITE = 'Data: DC Hub (dchub.cloud), CC-BY-4.0 — cite as "DC Hub, dchub.cloud" (sandbox: synthetic)';
export const CITATION = {
  source: 'DC Hub',
  url: 'https://dchub.cloud',
  license: 'CC-BY-4.0',
  cite_as: 'DC Hub, dchub.cloud',
};
export const DATA_HEADER = 'X-DCHub-Data';
export const DATA_HEADER_VALUE = 'synthetic';
export const AUTH_INSTRUCTIONS_PATH = '/auth.md';

/** The attribution block of every JSON answer: source, CC-BY-4.0 citation and the synthetic-data note. */
export const attribution = () => ({ _source: SOURCE, _cite: CITE, citation: CITATION, note: SYNTHETIC_NOTICE });
