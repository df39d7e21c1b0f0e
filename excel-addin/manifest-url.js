// The manifests name the development server (https://localhost:3000/). A production build names
// where dist/ is deployed instead, as Microsoft's template does with its urlProd: every
// https://localhost:3000/ in both manifests becomes DCHUB_ADDIN_URL.
export const DEV_URL = 'https://localhost:3000/';

/** The deployed URL from the environment, checked: https, ends with "/", not the dev server. */
export function productionUrl(raw = process.env.DCHUB_ADDIN_URL) {
  if (!raw)
    throw new Error(
      'Set DCHUB_ADDIN_URL to the https URL where excel-addin/dist is deployed, e.g. https://addins.example.com/dchub/',
    );
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`DCHUB_ADDIN_URL is not a URL: ${raw}`);
  }
  if (url.protocol !== 'https:')
    throw new Error(`DCHUB_ADDIN_URL must be https (Office loads add-ins over https only): ${raw}`);
  if (url.search || url.hash) throw new Error(`DCHUB_ADDIN_URL must not have a query or fragment: ${raw}`);
  const href = url.href.endsWith('/') ? url.href : `${url.href}/`;
  if (href === DEV_URL) throw new Error('DCHUB_ADDIN_URL is the development server');
  return href;
}

/** A manifest (XML or JSON text) pointing at `url` instead of the development server. */
export function productionManifest(text, url) {
  return String(text)
    .split(DEV_URL)
    .join(url)
    .replace(/Development manifest: [^\n]*-->/, `Production manifest: served from ${url} -->`);
}
