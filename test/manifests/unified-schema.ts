import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * A validator for a unified manifest against the teams JSON schema of its $schema version, as
 * bundled in @microsoft/app-manifest (what office-addin-manifest uses offline): Ajv, draft-04.
 */
export function unifiedSchemaValidator(schemaUrl: string) {
  const version = /teams\/(v[\d.]+|vDevPreview)\/MicrosoftTeams\.schema\.json$/.exec(schemaUrl)?.[1];
  if (!version) throw new Error(`not a teams manifest $schema: ${schemaUrl}`);
  const require = createRequire(import.meta.url);
  const schemaFile = path.join(
    path.dirname(require.resolve('@microsoft/app-manifest/package.json')),
    'build/json-schemas/teams',
    version,
    'MicrosoftTeams.schema.json',
  );
  if (!existsSync(schemaFile)) throw new Error(`no bundled schema ${schemaFile}`);
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return { version, validate: ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8'))) };
}
