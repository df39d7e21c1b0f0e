/** Where the sandbox and JupyterLab of this run listen (playwright.config.cjs starts them). */
export const SANDBOX = `http://127.0.0.1:${process.env.DCHUB_GALATA_SANDBOX_PORT || '8791'}`;
export const JUPYTER = `http://localhost:${process.env.DCHUB_GALATA_JUPYTER_PORT || '8888'}`;

/** The sandbox's Pro key. Only the Jupyter server holds it (DCHUB_API_KEY); the tests use it to ask
 * the sandbox for expected answers and to check it never reaches the page, notebooks or files. */
export const API_KEY = 'galata-pro-key-0001';
export const KEYED = { 'X-API-Key': API_KEY };
/** The sandbox's Enterprise key (about 232 briefs: more than one page), typed into the panel in direct mode. */
export const ENTERPRISE_KEY = 'galata-enterprise-key-0001';
export const QUEUE_PATH = '/api/v1/interconnection-queue/refined';

/** The sandbox profile of this run (DCHUB_GALATA_PROFILE): `spec`, or `real` (the real service's shapes). */
export const PROFILE: 'spec' | 'real' = process.env.DCHUB_GALATA_PROFILE === 'real' ? 'real' : 'spec';
