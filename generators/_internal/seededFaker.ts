// Faker behind fast-check: every faker call happens right after seeding faker from an integer that
// fast-check drew, in the same synchronous map. The output is then a pure function of fast-check's
// seed and path, so runs replay; faker's own state between calls never matters.
import fc from 'fast-check';
import {
  fakerAR,
  fakerDE,
  fakerDE_CH,
  fakerEN_GB,
  fakerEN_IN,
  fakerEN_US,
  fakerES,
  fakerFR,
  fakerJA,
  fakerKO,
  fakerPL,
  fakerPT_BR,
  fakerTR,
  fakerVI,
  fakerZH_CN,
  type Faker,
} from '@faker-js/faker';

/** A faker locale together with the country it describes (faker's own country() is random). */
export interface LocaleProfile {
  readonly id: string;
  readonly faker: Faker;
  readonly country: string;
  readonly countryCode: string;
  /** Written in the Latin script (mixing first names and surnames stays plausible among these). */
  readonly latin: boolean;
}

/** Locales for customer data: several scripts (Latin with diacritics, CJK, Hangul, Arabic). */
export const LOCALES: readonly LocaleProfile[] = [
  { id: 'en_IN', faker: fakerEN_IN, country: 'India', countryCode: 'IN', latin: true },
  { id: 'en_US', faker: fakerEN_US, country: 'United States', countryCode: 'US', latin: true },
  { id: 'en_GB', faker: fakerEN_GB, country: 'United Kingdom', countryCode: 'GB', latin: true },
  { id: 'de', faker: fakerDE, country: 'Deutschland', countryCode: 'DE', latin: true },
  { id: 'de_CH', faker: fakerDE_CH, country: 'Schweiz', countryCode: 'CH', latin: true },
  { id: 'fr', faker: fakerFR, country: 'France', countryCode: 'FR', latin: true },
  { id: 'es', faker: fakerES, country: 'España', countryCode: 'ES', latin: true },
  { id: 'pt_BR', faker: fakerPT_BR, country: 'Brasil', countryCode: 'BR', latin: true },
  { id: 'pl', faker: fakerPL, country: 'Polska', countryCode: 'PL', latin: true },
  { id: 'tr', faker: fakerTR, country: 'Türkiye', countryCode: 'TR', latin: true },
  { id: 'ja', faker: fakerJA, country: '日本', countryCode: 'JP', latin: false },
  { id: 'zh_CN', faker: fakerZH_CN, country: '中国', countryCode: 'CN', latin: false },
  { id: 'ko', faker: fakerKO, country: '대한민국', countryCode: 'KR', latin: false },
  { id: 'ar', faker: fakerAR, country: 'فلسطين', countryCode: 'PS', latin: false },
  { id: 'vi', faker: fakerVI, country: 'Việt Nam', countryCode: 'VN', latin: true },
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
  return fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
}

/** A string of `min`..`max` ASCII letters and digits. */
export function alphanumericString(
  min: number,
  max: number,
  alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
}
