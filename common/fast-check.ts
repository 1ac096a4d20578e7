// fast-check, loaded at its first use rather than at import. It is the largest module the library
// entry loads (about 390 KB, a third of importing `svc-conformance`), and only a team that draws
// values from the generators, or runs a property, uses it; one that imports the kit to sign or to
// start the sandbox should not pay for it. Arbitraries are built synchronously, so it is required
// (Node >= 20.19 requires ES modules), as the generators' faker locales are.
import type fastCheck from 'fast-check';
import { fastCheckModule } from './deferred.js';

type FastCheck = typeof fastCheck;

let loaded: FastCheck | undefined;

function load(): FastCheck {
  return (loaded ??= fastCheckModule());
}

/**
 * fast-check's default export, `fc`, whose members load fast-check when first read: `fc.integer()`
 * in a generator costs the load at the first arbitrary built, never at import.
 */
export const fc: FastCheck = new Proxy({} as FastCheck, { get: (_target, key) => Reflect.get(load(), key) as unknown });

// The types a module reads as `fc.…`, as with `import fc from 'fast-check'`.
// eslint-disable-next-line @typescript-eslint/no-namespace -- only a namespace merges types into the value `fc`
export declare namespace fc {
  type Arbitrary<T> = fastCheck.Arbitrary<T>;
}
