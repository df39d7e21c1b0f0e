/** Where the sandbox and JupyterLab of this run listen (playwright.config.cjs starts them). */
export const SANDBOX = `http://127.0.0.1:${process.env.DCHUB_GALATA_SANDBOX_PORT || '8791'}`;
export const JUPYTER = `http://localhost:${process.env.DCHUB_GALATA_JUPYTER_PORT || '8888'}`;
