import type { Requirement } from '../suites/catalog.js';
import type { Exchange } from '../suites/http.js';
import type { CheckMeta } from '../suites/context.js';

/** One check's outcome as the runner saw it. */
export interface CheckResult {
  meta: CheckMeta;
  state: 'passed' | 'failed' | 'skipped';
  durationMs: number;
}

export type RequirementStatus = 'passed' | 'failed' | 'skipped';

export interface Evidence {
  check: string;
  message: string;
  expected?: string;
  actual?: string;
  counterexample?: unknown;
  /** Commands to see it again: a curl line (signature redacted) and a freshly signed replay. */
  reproduce?: { curl?: string; replay?: string; run?: string };
  exchanges: Exchange[];
}

export interface RequirementReport extends Requirement {
  status: RequirementStatus;
  checks: Array<{ id: string; title: string; status: CheckResult['state']; message?: string }>;
  /** Why it was skipped: the config key that would enable it. */
  skipReason?: string;
  evidence: Evidence[];
}

/** report.json (P-CLI), and what every reporter renders. */
export interface Report {
  tool: { name: 'svc-conformance'; version: string };
  target: { baseUrl: string; environment: 'sandbox' | 'production'; embeddedSandbox: boolean };
  seed: number;
  runNumber: number;
  runs: number;
  strict: boolean;
  startedAt: string;
  durationMs: number;
  /** The run's verdict: conformant when no MUST failed (and, with --strict, no SHOULD). */
  verdict: 'conformant' | 'not conformant';
  summary: { passed: number; failed: number; warned: number; skipped: number };
  /** One cause behind many failures, said once (e.g. every correctly signed request refused with 401). */
  hints?: string[];
  requirements: RequirementReport[];
  /** Why the run could not check the target at all (unreachable, hanging), when that happened. */
  error?: string;
  /** verify-client: the client command judged, and what it did. */
  client?: { command: string; exitCode: number | null; requests: number; scenarios: string[] };
}
