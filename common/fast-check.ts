// fast-check, loaded at its first use: only a team that draws values or runs a property needs it,
// and it is the largest module the library entry would load.
import type fastCheck from 'fast-check';
import { fastCheckModule } from './deferred.js';

type FastCheck = typeof fastCheck;

let loaded: FastCheck | undefined;

/** fast-check's `fc`, whose members load fast-check when first read, never at import. */
export const fc: FastCheck = new Proxy({} as FastCheck, {
  get: (_target, key) => Reflect.get((loaded ??= fastCheckModule()), key) as unknown,
});

// eslint-disable-next-line @typescript-eslint/no-namespace -- only a namespace merges types into the value `fc`
export declare namespace fc {
  type Arbitrary<T> = fastCheck.Arbitrary<T>;
}
