// The wire types, generated from the server's OpenAPI document: `schema.generated.ts` is
// rendered by `npm run gen:api` from `openapi.json`, the copy of `/api/openapi.json` that the
// server's test (tests/api/openapi.rs) keeps equal to what it serves, and
// `wire.test.ts` fails when the rendering is stale. Name a schema as `Wire<'CustomerRecord'>`
// rather than writing its fields again.
import type { components, paths } from './schema.generated';

/** A schema of the server's document, by its name there. */
export type Wire<Name extends keyof components['schemas']> = components['schemas'][Name];

export type { components, paths };
