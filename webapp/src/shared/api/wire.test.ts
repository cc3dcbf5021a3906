import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

describe('the generated wire types', () => {
  it('are the rendering of the committed document (run `npm run gen:api` after it changes)', async () => {
    const document = JSON.parse(readFileSync(here('./openapi.json'), 'utf8'));
    const rendered = astToString(await openapiTS(document));
    const committed = readFileSync(here('./schema.generated.ts'), 'utf8');
    // The CLI adds a header comment; compare what follows it.
    expect(committed.endsWith(rendered)).toBe(true);
  }, 60_000);
});
