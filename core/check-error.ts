// An exception in a check's own code is never the target's fault: a kit check's is the kit's bug, a team
// check's is its module's, and blaming the kit for it sends the team to the wrong place.

/** A check whose own code threw: the kit's, or a team's (`module`: its path from the working directory). */
export interface CheckCodeError {
  check: string;
  requirement: string;
  message: string;
  module?: string;
}

/** What threw, in one phrase: "team check X in ./checks/foo.mjs threw: …" or "kit error in check X: …". */
export function thrownIn(e: CheckCodeError): string {
  return e.module !== undefined
    ? `team check ${e.check} in ${e.module} threw: ${e.message}`
    : `kit error in check ${e.check}: ${e.message}`;
}

/** Who should act on it: the module's authors, or the kit's maintainers. */
export function whoFixes(e: Pick<CheckCodeError, 'module'>): string {
  return e.module !== undefined
    ? `the team module's fault, not the target's nor the kit's: fix ${e.module}`
    : "this is the kit's fault, not the target's: please report it";
}
