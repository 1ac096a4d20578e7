// Configuration is not the target's failure (P-CLI, Verdicts v1.3): no correctly signed request taken is
// inconclusive, unless the target showed a fault no configuration explains (wrong signature taken, a 5xx).
import type { CheckResult, PlainlySigned } from './report.js';

/** Fewest plainly signed answers before "none was taken" says more than a narrow --only. */
const MIN_SIGNED = 3;

/** The run's plainly signed requests, added up over its checks. */
export function plainlySignedTally(results: readonly CheckResult[]): PlainlySigned {
  const sum: PlainlySigned = { answered: 0, refused401: 0, accepted: 0, notFound: 0, notJson: 0 };
  for (const r of results) {
    const t = r.meta.plainlySigned;
    if (t === undefined) continue;
    for (const key of Object.keys(sum) as (keyof PlainlySigned)[]) sum[key] += t[key];
  }
  return sum;
}

/** Whether enough correctly signed requests were answered and none of them was taken past authentication. */
export function noSignedRequestAccepted(results: readonly CheckResult[]): boolean {
  const { answered, accepted } = plainlySignedTally(results);
  return answered >= MIN_SIGNED && accepted === 0;
}

/** Whether the target took a request signed a known wrong way, or wrong or not at all. */
export function authenticatesOtherwise(results: readonly CheckResult[]): boolean {
  return results.some((r) => r.meta.acceptedVariant !== undefined) || tookWrongSigning(results).length > 0;
}

/** The results whose requests signed wrong or not at all the target took; a 404 counts only from a target that
 * answered no correctly signed request 404 (so its paths are right). */
function tookWrongSigning(results: readonly CheckResult[]): CheckResult[] {
  const pathsRight = plainlySignedTally(results).notFound === 0;
  return results.filter((r) => (r.meta.wronglySignedAccepted ?? 0) > 0 || (pathsRight && (r.meta.wronglySignedNotFound ?? 0) > 0));
}

const serverErrors = (results: readonly CheckResult[]) => results.reduce((n, r) => n + (r.meta.serverErrors ?? 0), 0);

/** Why the configuration kept the run from judging, with the likely cause; nothing when that is not so. */
export function misconfiguration(results: readonly CheckResult[], baseUrl: string): string[] {
  if (!noSignedRequestAccepted(results) || authenticatesOtherwise(results) || serverErrors(results) > 0) return [];
  const t = plainlySignedTally(results);
  const head = `no correctly signed request was taken by the target (${t.answered} answered: ${statusWords(t)}), so it could not be judged`;
  if (t.notFound + t.notJson > t.answered / 2)
    return [
      `${head}: the base URL or the operation paths are likely wrong, not the target: check baseUrl (${baseUrl}; each operation's path, such as /api/v3/pg/order/create, is appended to it) and profile.operations`,
    ];
  const clues = [...new Set(results.flatMap((r) => r.meta.credentialClues ?? []))];
  return [
    `${head}: the configured keys are likely wrong, not the target: check that merchant.apiKey and merchant.secretKey (SVC_API_KEY, SVC_SECRET_KEY) are this merchant's, of this environment, copied whole` +
      (clues.length > 0 ? ` (${clues.join('; ')})` : '') +
      '; `svc-conformance diagnose` explains a captured request',
  ];
}

/** "41 refused 401, 3 answered 404, 2 answered otherwise; 5 not the interface's JSON". */
function statusWords(t: PlainlySigned): string {
  const other = t.answered - t.refused401 - t.notFound;
  const words = [
    t.refused401 > 0 ? `${t.refused401} refused 401` : '',
    t.notFound > 0 ? `${t.notFound} answered 404` : '',
    other > 0 ? `${other} answered otherwise` : '',
  ].filter(Boolean);
  return `${words.join(', ')}${t.notJson > 0 ? `; ${t.notJson} not the interface's JSON` : ''}`;
}

/** One cause behind many failures, said once up front: no correctly signed request taken, yet a wrong one was, or a 5xx. */
export function runHints(results: readonly CheckResult[]): string[] {
  if (!noSignedRequestAccepted(results)) return [];
  const accepted = results.find((r) => r.meta.acceptedVariant !== undefined);
  if (accepted !== undefined)
    return [
      `no correctly signed request was taken, but one signed a known wrong way was: ${accepted.meta.failure?.message ?? accepted.meta.acceptedVariant}`,
    ];
  const taken = tookWrongSigning(results).map((r) => r.meta.requirement);
  if (taken.length > 0)
    return [
      `no correctly signed request was taken, but requests signed wrong or not at all were (${[...new Set(taken)].join(', ')}): the target authenticates another way than the profile's, whatever the keys`,
    ];
  const errors = serverErrors(results);
  if (errors > 0)
    return [
      `no correctly signed request was taken, but the target answered ${errors} request${errors === 1 ? '' : 's'} with a 5xx, which no configuration explains (P-ERR-3)`,
    ];
  return [];
}
