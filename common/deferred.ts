// Packages loaded at first use, not at import, so a user who never needs one does not pay for it.
// scripts/build-action.mjs replaces this module in the Action's bundle: add a load here, not elsewhere.
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

/** Validators compiled into a bundle that carries them (the Action's); none here (schemas/index.ts). */
export function carriedValidators(): unknown {
  return undefined;
}

/** fast-check's ES module build, the file `import fc from 'fast-check'` loads: a plain require would load
 *  the CommonJS build beside it, whose arbitraries are not the team's `fc.Arbitrary`. */
export function fastCheckModule(): typeof fastCheck {
  const file = fileURLToPath(import.meta.resolve('fast-check'));
  return (requireModule(file) as { default: typeof fastCheck }).default;
}

/** The faker instance a locale module of @faker-js/faker exports (`de`, `en_IN`, …). */
export function fakerLocale(id: string): Faker {
  return (requireModule(`@faker-js/faker/locale/${id}`) as { faker: Faker }).faker;
}
