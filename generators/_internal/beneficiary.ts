// Beneficiaries consistent with their transfer mode: a VPA for upi, account number and IFSC in India,
// an IBAN for sepa, an account number (or IBAN) with a BIC abroad.
import { fc } from '../../common/fast-check.js';
import type { Faker } from '@faker-js/faker';
import type { Beneficiary, Currency, TransferMode } from '../../schemas/types.js';
import { digitString, drawWith, fakerSeed, localeById } from './seededFaker.js';

interface IndianBank {
  readonly ifscPrefix: string;
  readonly name: string;
}

const INDIAN_BANKS: readonly IndianBank[] = [
  { ifscPrefix: 'HDFC', name: 'HDFC Bank' },
  { ifscPrefix: 'ICIC', name: 'ICICI Bank' },
  { ifscPrefix: 'SBIN', name: 'State Bank of India' },
  { ifscPrefix: 'UTIB', name: 'Axis Bank' },
  { ifscPrefix: 'KKBK', name: 'Kotak Mahindra Bank' },
  { ifscPrefix: 'PUNB', name: 'Punjab National Bank' },
  { ifscPrefix: 'BARB', name: 'Bank of Baroda' },
  { ifscPrefix: 'YESB', name: 'Yes Bank' },
  { ifscPrefix: 'IDFB', name: 'IDFC First Bank' },
  { ifscPrefix: 'CNRB', name: 'Canara Bank' },
];

const UPI_HANDLES = ['okaxis', 'oksbi', 'okhdfcbank', 'okicici', 'ybl', 'paytm', 'ibl', 'axl', 'upi'] as const;

/** A bank abroad: BIC parts, whether its country uses IBANs, and a faker locale for names there. */
interface ForeignBank {
  readonly bank: string;
  readonly country: string;
  readonly location: string;
  readonly name: string;
  readonly iban: boolean;
  readonly sepa: boolean;
  readonly locale: string;
}

const FOREIGN_BANKS: readonly ForeignBank[] = [
  { bank: 'DEUT', country: 'DE', location: 'FF', name: 'Deutsche Bank', iban: true, sepa: true, locale: 'de' },
  { bank: 'COBA', country: 'DE', location: 'FF', name: 'Commerzbank', iban: true, sepa: true, locale: 'de' },
  { bank: 'BNPA', country: 'FR', location: 'PP', name: 'BNP Paribas', iban: true, sepa: true, locale: 'fr' },
  { bank: 'SOGE', country: 'FR', location: 'PP', name: 'Société Générale', iban: true, sepa: true, locale: 'fr' },
  { bank: 'BBVA', country: 'ES', location: 'MM', name: 'BBVA', iban: true, sepa: true, locale: 'es' },
  { bank: 'CAIX', country: 'ES', location: 'BB', name: 'CaixaBank', iban: true, sepa: true, locale: 'es' },
  { bank: 'INGB', country: 'NL', location: '2A', name: 'ING Bank', iban: true, sepa: true, locale: 'de' },
  { bank: 'PKOP', country: 'PL', location: 'PW', name: 'PKO Bank Polski', iban: true, sepa: true, locale: 'pl' },
  { bank: 'BARC', country: 'GB', location: '22', name: 'Barclays Bank', iban: true, sepa: false, locale: 'en_GB' },
  { bank: 'UBSW', country: 'CH', location: 'ZH', name: 'UBS Switzerland', iban: true, sepa: false, locale: 'de_CH' },
  { bank: 'EBIL', country: 'AE', location: 'AD', name: 'Emirates NBD', iban: true, sepa: false, locale: 'ar' },
  { bank: 'CHAS', country: 'US', location: '33', name: 'JPMorgan Chase Bank', iban: false, sepa: false, locale: 'en_US' },
  { bank: 'DBSS', country: 'SG', location: 'SG', name: 'DBS Bank', iban: false, sepa: false, locale: 'en_GB' },
  { bank: 'MHCB', country: 'JP', location: 'JT', name: 'Mizuho Bank', iban: false, sepa: false, locale: 'ja' },
  { bank: 'HSBC', country: 'HK', location: 'HH', name: 'HSBC Hong Kong', iban: false, sepa: false, locale: 'zh_CN' },
];

const US_BANKS = ['JPMorgan Chase Bank', 'Bank of America', 'Wells Fargo Bank', 'Citibank', 'U.S. Bank'] as const;

/** The currency a merchant would typically pay out in for a mode; none: any currency. */
export const USUAL_CURRENCY: Partial<Record<TransferMode, Currency>> = {
  imps: 'INR',
  neft: 'INR',
  rtgs: 'INR',
  upi: 'INR',
  sepa: 'EUR',
  ach: 'USD',
};

function payeeName(f: Faker, business: boolean): string {
  return business ? f.company.name() : f.person.fullName();
}

function optional<K extends keyof Beneficiary>(key: K, value: Beneficiary[K], present: boolean): Partial<Beneficiary> {
  return present ? { [key]: value } : {};
}

/** A beneficiary drawn from a faker seed, whether the payee is a business, and the mode's own `fields`, in that order. */
function payee<T extends Record<string, fc.Arbitrary<unknown>>>(
  fields: T,
  build: (drawn: { seed: number; business: boolean } & { [K in keyof T]: T[K] extends fc.Arbitrary<infer V> ? V : never }) => Beneficiary,
): fc.Arbitrary<Beneficiary> {
  return fc.record({ seed: fakerSeed(), business: fc.boolean(), ...fields }).map((drawn) => build(drawn as Parameters<typeof build>[0]));
}

function upiBeneficiary(): fc.Arbitrary<Beneficiary> {
  return payee({ byMobile: fc.boolean(), handle: fc.constantFrom(...UPI_HANDLES) }, ({ seed, business, byMobile, handle }) =>
    drawWith(localeById('en_IN').faker, seed, (f) => {
      const name = payeeName(f, business);
      const user = byMobile
        ? `9${f.string.numeric(9)}`
        : f.internet
            .username()
            .toLowerCase()
            .replace(/[^a-z0-9._-]/g, '') || f.string.alpha({ length: 8, casing: 'lower' });
      return { name, vpa: `${user}@${handle}` };
    }),
  );
}

function indianBankBeneficiary(): fc.Arbitrary<Beneficiary> {
  return payee(
    { bank: fc.constantFrom(...INDIAN_BANKS), accountNumber: digitString(9, 18), branch: digitString(6, 6), withBankName: fc.boolean() },
    ({ seed, business, bank, accountNumber, branch, withBankName }) => ({
      name: drawWith(localeById('en_IN').faker, seed, (f) => payeeName(f, business)),
      account_number: accountNumber,
      ifsc: `${bank.ifscPrefix}0${branch}`,
      ...optional('bank_name', bank.name, withBankName),
    }),
  );
}

function bicOf(bank: ForeignBank, withBranch: boolean): string {
  return `${bank.bank}${bank.country}${bank.location}${withBranch ? 'XXX' : ''}`;
}

function sepaBeneficiary(): fc.Arbitrary<Beneficiary> {
  const bank = fc.constantFrom(...FOREIGN_BANKS.filter((b) => b.sepa));
  return payee(
    { bank, withBic: fc.boolean(), withBranch: fc.boolean(), withBankName: fc.boolean() },
    ({ seed, business, bank, withBic, withBranch, withBankName }) =>
      drawWith(localeById(bank.locale).faker, seed, (f) => ({
        name: payeeName(f, business),
        iban: f.finance.iban({ countryCode: bank.country }),
        ...optional('swift_code', bicOf(bank, withBranch), withBic),
        ...optional('bank_name', bank.name, withBankName),
      })),
  );
}

function achBeneficiary(): fc.Arbitrary<Beneficiary> {
  return payee(
    { accountNumber: digitString(8, 17), bank: fc.constantFrom(...US_BANKS), withBankName: fc.boolean() },
    ({ seed, business, accountNumber, bank, withBankName }) => ({
      name: drawWith(localeById('en_US').faker, seed, (f) => payeeName(f, business)),
      account_number: accountNumber,
      ...optional('bank_name', bank, withBankName),
    }),
  );
}

/** wire and swift: a BIC always; an IBAN where the bank's country uses them, else an account number. */
function internationalBeneficiary(): fc.Arbitrary<Beneficiary> {
  return payee(
    { bank: fc.constantFrom(...FOREIGN_BANKS), accountNumber: digitString(8, 20), withBranch: fc.boolean() },
    ({ seed, business, bank, accountNumber, withBranch }) =>
      drawWith(localeById(bank.locale).faker, seed, (f) => ({
        name: payeeName(f, business),
        ...(bank.iban ? { iban: f.finance.iban({ countryCode: bank.country }) } : { account_number: accountNumber }),
        swift_code: bicOf(bank, withBranch),
        bank_name: bank.name,
      })),
  );
}

/** The beneficiaries of each mode, carrying the fields it needs. */
const BENEFICIARIES: Record<TransferMode, () => fc.Arbitrary<Beneficiary>> = {
  upi: upiBeneficiary,
  imps: indianBankBeneficiary,
  neft: indianBankBeneficiary,
  rtgs: indianBankBeneficiary,
  sepa: sepaBeneficiary,
  ach: achBeneficiary,
  wire: internationalBeneficiary,
  swift: internationalBeneficiary,
};

export function beneficiaryFor(mode: TransferMode): fc.Arbitrary<Beneficiary> {
  return BENEFICIARIES[mode]();
}
