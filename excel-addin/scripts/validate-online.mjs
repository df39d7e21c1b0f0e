// Microsoft's own manifest check (office-addin-manifest validate). For an XML manifest it posts
// the file to Microsoft's validation service, so it needs the network and sends the manifest
// out: it runs only when asked (DCHUB_VALIDATE_ONLINE=1). The offline checks of test/manifests
// run in every case (npm run validate runs them first).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const addin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (process.env.DCHUB_VALIDATE_ONLINE !== '1') {
  console.log(
    "office-addin-manifest validate: skipped (set DCHUB_VALIDATE_ONLINE=1 to send the manifests to Microsoft's validation service)",
  );
  process.exit(0);
}
// The built manifests (production ones after `npm run build:prod`), else the sources.
const pick = (name) =>
  [path.join(addin, 'dist', name), path.join(addin, '..', 'manifests', name)].find((f) => existsSync(f));
let failed = false;
for (const name of ['manifest.xml', 'manifest.json']) {
  const file = pick(name);
  console.log(`== office-addin-manifest validate ${path.relative(process.cwd(), file)}`);
  const r = spawnSync('npx', ['--no-install', 'office-addin-manifest', 'validate', file], {
    stdio: 'inherit',
    timeout: 120_000,
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
