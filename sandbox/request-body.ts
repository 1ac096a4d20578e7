import { jsonTextFault, TOO_DEEP } from '../common/json-duplicate-keys.js';
import { nestedDeeperThan } from '../common/json-depth.js';
import { isJsonContentType } from '../core/predicates.js';
import { errorResponse, type SandboxResponse } from './envelope.js';
import type { FaultName } from './faults.js';

/** How deep a request body may nest (a sandbox rule; the interface's deepest body nests 3 levels). */
export const MAX_BODY_DEPTH = 32;

/** An operation's body (`text`, already authenticated) as the JSON object it must be, or the 400 (or a
 * fault's 415 or 500) that refuses it. */
export function jsonObjectOf(text: string, contentType: string, faults: ReadonlySet<FaultName>): Record<string, unknown> | SandboxResponse {
  const fail = (status: number, message: string) => errorResponse(status, message, faults);
  if (!isJsonContentType(contentType)) return fail(400, 'Content-Type must be application/json');
  if (faults.has('http-media-type-exact') && contentType !== 'application/json')
    return fail(415, `Content-Type must be exactly application/json, not ${contentType}`);
  if (text.trim() === '') return fail(400, 'the body is empty; send a JSON object');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    if (faults.has('errors-invalid-json-500')) return fail(500, 'internal error');
    return fail(400, `the body is not valid JSON: ${(error as Error).message}`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail(400, 'the body must be a JSON object');
  const found = textFault(text, body, faults);
  if (found === TOO_DEEP) return fail(400, `the body nests objects or arrays more than ${MAX_BODY_DEPTH} levels deep`);
  if (found !== undefined) {
    const where = `the key ${JSON.stringify(found.key)} in the object at ${JSON.stringify(found.pointer)}`;
    return fail(400, `the body repeats ${where}; send each key once`);
  }
  return body as Record<string, unknown>;
}

/** A repeated key (P-HTTP-4: JSON.parse kept only the last) or a nesting too deep; under the fault that keeps
 * the last value, only the parsed depth counts. */
function textFault(text: string, body: object, faults: ReadonlySet<FaultName>): ReturnType<typeof jsonTextFault> {
  if (!faults.has('http-repeated-key-last-wins')) return jsonTextFault(text, MAX_BODY_DEPTH);
  return nestedDeeperThan(body, MAX_BODY_DEPTH) ? TOO_DEEP : undefined;
}
