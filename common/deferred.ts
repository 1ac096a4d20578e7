// The packages the kit loads at their first use rather than at import: each costs tens to hundreds of
// milliseconds that a command or a library user who never needs it should not pay. They are required
// (validators and arbitraries are made synchronously; Node >= 20.19 requires ES modules), all here.
// The Action's bundle (scripts/build-action.mjs) replaces this module with one that requires the same
// packages from inside the bundle, which has no node_modules beside it: add a load here, not elsewhere.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type Ajv2020Module from 'ajv/dist/2020.js';
import type { Format } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import type { Faker } from '@faker-js/faker';
import type fastCheck from 'fast-check';

const requireModule = createRequire(import.meta.url);

/** ajv's draft 2020-12 class. */
export function ajv2020(): typeof Ajv2020Module.default {
  return (requireModule('ajv/dist/2020.js') as typeof Ajv2020Module).default;
}

/** ajv-formats' function that adds its formats to an ajv. */
export function addFormats(): typeof addFormatsModule.default {
  return (requireModule('ajv-formats') as typeof addFormatsModule).default;
}

/** ajv-formats' formats, as the build's precompiled validators are handed them. */
export function fullFormats(): Record<string, Format> {
  return (requireModule('ajv-formats/dist/formats.js') as { fullFormats: Record<string, Format> }).fullFormats;
}

/** The version of ajv or ajv-formats loaded: precompiled validators are used only with the ones they came from. */
export function validatorPackageVersion(name: 'ajv' | 'ajv-formats'): string {
  return (requireModule(name === 'ajv' ? 'ajv/package.json' : 'ajv-formats/package.json') as { version: string }).version;
}

/**
 * The validators compiled into this code by a bundle that carries them (the Action's); none here,
 * where the build writes them to a file beside the package's modules (schemas/index.ts).
 */
export function carriedValidators(): unknown {
  return undefined;
}

/**
 * fast-check's default export. The ES module build, by the very file `import fc from 'fast-check'`
 * loads: Node then holds one fast-check, shared with the team's own and the rest of the kit's (a plain
 * require would load the CommonJS build beside it: twice the cost, and arbitraries that are not the
 * team's `fc.Arbitrary`).
 */
export function fastCheckModule(): typeof fastCheck {
  const file = fileURLToPath(import.meta.resolve('fast-check'));
  return (requireModule(file) as { default: typeof fastCheck }).default;
}

/** The faker instance a locale module of @faker-js/faker exports (`de`, `en_IN`, …). */
export function fakerLocale(id: string): Faker {
  return (requireModule(`@faker-js/faker/locale/${id}`) as { faker: Faker }).faker;
}
