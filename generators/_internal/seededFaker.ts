// Faker behind fast-check: each draw seeds faker from an integer fast-check drew, in the same
// synchronous map, so the output is a pure function of fast-check's seed and path and runs replay.
import { fakerLocale } from '../../common/deferred.js';
import { fc } from '../../common/fast-check.js';
import { memo } from '../../common/memo.js';
import type { Faker, LocaleDefinition, Randomizer } from '@faker-js/faker';

// Each locale is loaded at its first draw: faker is costly to load, and only a run that draws pays.
const loaded = new Map<string, Faker>();

function fakerOf(id: string): Faker {
  return memo(loaded, id, () => {
    const shipped = fakerLocale(id);
    // The shipped locale data on a randomizer cheap to seed; a locale module exports only its instance.
    const FakerClass = shipped.constructor as new (options: { locale: LocaleDefinition; randomizer: Randomizer }) => Faker;
    return new FakerClass({ locale: shipped.rawDefinitions, randomizer: splitMix32() });
  });
}

/** faker's randomizer for draws each seeded first: seeding faker's Mersenne Twister fills 624 words,
 *  SplitMix32's is one assignment, and a draw's few dozen numbers need no more. */
export function splitMix32(): Randomizer {
  // Closures, not methods: faker calls next() unbound.
  let state = 0;
  return {
    seed(seed: number | number[]): void {
      state = 0;
      for (const word of typeof seed === 'number' ? [seed] : seed) state = Math.imul(state ^ (word >>> 0), 0x9e3779b1) >>> 0;
    },
    next(): number {
      state = (state + 0x9e3779b9) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return ((z ^ (z >>> 16)) >>> 0) / 0x1_0000_0000;
    },
  };
}

/** A faker locale together with the country it describes (faker's own country() is random). */
export class LocaleProfile {
  constructor(
    readonly id: string,
    readonly country: string,
    readonly countryCode: string,
    /** Written in the Latin script (mixing first names and surnames stays plausible among these). */
    readonly latin: boolean,
  ) {}

  /** This locale's faker, loaded at first use. */
  get faker(): Faker {
    return fakerOf(this.id);
  }
}

/** Locales for customer data: several scripts (Latin with diacritics, CJK, Hangul, Arabic). */
export const LOCALES: readonly LocaleProfile[] = [
  new LocaleProfile('en_IN', 'India', 'IN', true),
  new LocaleProfile('en_US', 'United States', 'US', true),
  new LocaleProfile('en_GB', 'United Kingdom', 'GB', true),
  new LocaleProfile('de', 'Deutschland', 'DE', true),
  new LocaleProfile('de_CH', 'Schweiz', 'CH', true),
  new LocaleProfile('fr', 'France', 'FR', true),
  new LocaleProfile('es', 'España', 'ES', true),
  new LocaleProfile('pt_BR', 'Brasil', 'BR', true),
  new LocaleProfile('pl', 'Polska', 'PL', true),
  new LocaleProfile('tr', 'Türkiye', 'TR', true),
  new LocaleProfile('ja', '日本', 'JP', false),
  new LocaleProfile('zh_CN', '中国', 'CN', false),
  new LocaleProfile('ko', '대한민국', 'KR', false),
  new LocaleProfile('ar', 'فلسطين', 'PS', false),
  new LocaleProfile('vi', 'Việt Nam', 'VN', true),
];

export const LATIN_LOCALES: readonly LocaleProfile[] = LOCALES.filter((locale) => locale.latin);

export function localeById(id: string): LocaleProfile {
  const found = LOCALES.find((locale) => locale.id === id);
  if (found === undefined) throw new Error(`generators: no locale profile '${id}'`);
  return found;
}

/** The integer faker is seeded with; faker accepts any 32-bit value. */
export function fakerSeed(): fc.Arbitrary<number> {
  return fc.integer({ min: 0, max: 0x7fffffff });
}

/** Seeds `faker` with `seed` and draws from it at once. */
export function drawWith<T>(faker: Faker, seed: number, draw: (f: Faker) => T): T {
  faker.seed(seed);
  return draw(faker);
}

/** Only the ASCII digits of a text (phone numbers come formatted from faker). */
export function digitsOf(text: string): string {
  return text.replace(/[^0-9]/g, '');
}

/** A string of `min`..`max` decimal digits. */
export function digitString(min: number, max: number): fc.Arbitrary<string> {
  return alphanumericString(min, max, '0123456789');
}

/** Upper case without I and O, which read as 1 and 0. */
export const UPPER_ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A string of `min`..`max` characters of `alphabet` (default: ASCII letters and digits). */
export function alphanumericString(min: number, max: number, alphabet = ALPHANUMERIC): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
}
