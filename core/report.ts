import type { CheckCodeError } from './check-error.js';
import type { Exchange } from './exchange.js';

/** The conformance profile whose rules the kit judges by (shared/spec/profile.md). */
export const PROFILE_VERSION = 'v1.3';

export type Level = 'MUST' | 'SHOULD' | 'MAY';

/** One testable statement of the catalog (suites/catalog.json, or a team's own checks module). */
export interface Requirement {
  id: string;
  title: string;
  level: Level;
  section: string;
  /** The profile rules it rests on. */
  profile: string[];
  /** Rests on the profile's P-OPS operations rather than the interface. */
  extension: boolean;
  /** Longer statement, when the title is not all of it. */
  statement?: string;
  /** Set for a requirement a team added with its own checks (config key "checks"): the module it came from. */
  source?: string;
  /** Set when the requirement rests on a point interface.md leaves open, so a failure says the rule is the profile's. */
  profileDecides?: ProfileDecision;
}

/** A point the interface leaves open, as the profile decides it (e.g. P-OPS-1: "cancelling a CANCELLED order answers 422"). */
export interface ProfileDecision {
  rule: string;
  decision: string;
}

/** Something a check saw about another requirement (an envelope slip noticed while checking auth). */
export interface Finding {
  requirement: string;
  message: string;
}

/** 'error' is the kit's own fault (an exception in a check's code): shown apart, exit 2, never a failed requirement. */
export type CheckOutcome = 'passed' | 'failed' | 'skipped' | 'error';

/** What a check leaves for the verdict and the reporters: its outcome's reason, evidence and findings. */
export interface CheckMeta {
  check: string;
  requirement: string;
  title: string;
  skipped?: string;
  failure?: {
    message: string;
    expected?: string;
    actual?: string;
    counterexample?: unknown;
    steps?: string[];
    reproduce?: string;
    replayPath?: string;
    webhookEvent?: string;
  };
  /** An exception in the check's own code: its message, where it was thrown, and the team module that holds the check, if a team's. */
  error?: { message: string; stack?: string; module?: string };
  evidence: Exchange[];
  findings: Array<Finding & { exchange?: Exchange }>;
  /** Set when the run stopped sending during or before this check, and why. */
  stopped?: string;
  /** How many of the check's exchanges the evidence leaves out (it keeps the last few; run --har FILE records all). */
  evidenceLeftOut?: number;
  /** Requests signed plainly with the merchant's keys that got an answer, tallied by kind of answer. */
  plainlySigned?: PlainlySigned;
  /** Answers of this check with a 5xx status, whatever the request: no configuration makes a correct server answer one. */
  serverErrors?: number;
  /** What the configuration itself suggests when no correctly signed request was taken (a secret that is another merchant's). */
  credentialClues?: string[];
  /** What the check saw that is no verdict but a reader should know (3 stray requests to the kit's webhook listener ignored). */
  notes?: string[];
  /** Its correctly signed requests sent again after a 401 (a possible replay of another run's), and how many of those were then taken. */
  resent?: { sent: number; accepted: number };
  /** Its requests signed wrong or not at all on purpose that the target took past authentication (2xx, 409, 422). */
  wronglySignedAccepted?: number;
  /** Its requests signed wrong or not at all on purpose that the target answered 404, as it answers an unknown record. */
  wronglySignedNotFound?: number;
  /** The check's rule does not apply to this target (a rule about https when the base URL is http): nothing to judge. */
  notApplicable?: boolean;
  /** Why the check could not judge what the configuration asked (e.g. the webhook receiver could not listen): inconclusive. */
  inconclusive?: string;
  /** The known-wrong signing variant the target accepted: every refusal was then the target's fault, not the credentials'. */
  acceptedVariant?: string;
}

/** A check's tally of its plainly signed requests (CheckMeta.plainlySigned). */
export interface PlainlySigned {
  answered: number;
  refused401: number;
  accepted: number;
  notFound: number;
  notJson: number;
}

export interface CheckResult {
  meta: CheckMeta;
  state: CheckOutcome;
  durationMs: number;
}

type RequirementStatus = 'passed' | 'failed' | 'skipped';

export interface Evidence {
  check: string;
  message: string;
  expected?: string;
  actual?: string;
  counterexample?: unknown;
  /** A model check's shortest failing sequence, one numbered step a line: the request and its answer. */
  steps?: string[];
  /** Exchanges of the check that are not shown here (only the last few are kept); run --har FILE records every one. */
  leftOut?: number;
  /** Commands to see it again; `sandbox` starts the embedded sandbox first when the run certified it. */
  reproduce?: { curl?: string; replay?: string; run?: string; trigger?: string; sandbox?: string };
  exchanges: Exchange[];
}

export interface RequirementReport extends Requirement {
  status: RequirementStatus;
  checks: Array<{ id: string; title: string; status: CheckOutcome; message?: string }>;
  /** Why it was skipped: the config key that would enable it. */
  skipReason?: string;
  /** Skipped because its rule does not apply to this target: counted as judged by the coverage. */
  notApplicable?: boolean;
  /** How long its checks took, ms, added up (they may have run side by side with others). */
  durationMs?: number;
  /** Where the kit states it in full, relative to the package root (e.g. docs/requirements.md#AUTH-ACCEPT); a team's own has none. */
  reference?: string;
  evidence: Evidence[];
}

/** P-CLI's three verdicts. `inconclusive`: the run could not judge the target (exit 2), and says why. */
export type Verdict = 'conformant' | 'not-conformant' | 'inconclusive';

/** How much of the catalog the run judged (passed or failed); the rest is named. */
export interface Coverage {
  judged: number;
  total: number;
  /** Requirements not judged: skipped for a missing config key, left out by --only/--skip, or not judgeable. */
  notJudged: string[];
}

/** report.json (P-CLI), and what every reporter renders. */
export interface Report {
  tool: { name: 'svc-conformance'; version: string };
  target: { baseUrl: string; environment: 'sandbox' | 'production'; embeddedSandbox: boolean };
  seed: number;
  runNumber: number;
  runs: number;
  /** Requests the run kept in flight at most (run --concurrency); 1: one check at a time. */
  concurrency?: number;
  strict: boolean;
  startedAt: string;
  durationMs: number;
  /** --require-all: a partial verdict is inconclusive. */
  requireAll?: boolean;
  /** Decided once, by core/verdict.ts: conformant, not-conformant, or inconclusive (with `reasons`). */
  verdict: Verdict;
  /** Why the run could not judge the target: present exactly when the verdict is inconclusive. */
  reasons?: string[];
  coverage: Coverage;
  summary: { passed: number; failed: number; warned: number; skipped: number };
  /** One cause behind many failures, said once (e.g. no correctly signed request taken, but a wrong scheme was). */
  hints?: string[];
  /** What the run saw that is no verdict (traffic that was not the target's, ignored and counted), each said once. */
  notes?: string[];
  requirements: RequirementReport[];
  /** Checks whose own code threw (never the target's fault; `module` names a team's): the run judged less, exit 2. */
  kitErrors?: CheckCodeError[];
  /** verify-client: `requests` are the client's own (the run's credentials); `foreignRequests` came but were not judged. */
  client?: { command: string; exitCode: number | null; requests: number; foreignRequests?: number; scenarios: string[] };
  /** verify-receiver (and verify-client --webhook-url): the webhook receiver judged, and how many deliveries it got. */
  receiver?: { url: string; deliveries: number };
  /** judge (P-TRAFFIC-4): each side of observed traffic, judged only on what it exercised; the verdict is the worse. */
  sides?: Record<'client' | 'server', { verdict: Verdict; coverage: Coverage }>;
  /** What judged the target and how: for a person signing the report off. */
  certification?: Certification;
  /** SHA-256 over the canonical text of everything else in the report ("sha256:…"), set when it is written; verify-report checks it. */
  digest?: string;
}

/** The judging side of a report: profile and catalog versions, the configuration (secrets removed), the options. */
export interface Certification {
  profile: string;
  /** The requirement catalogs used, each with the SHA-256 of its text ("sha256:…"). */
  catalogs: Array<{ file: string; digest: string }>;
  /** The target's configuration with every secret replaced by "[redacted]", and the SHA-256 of its canonical text. */
  config?: { fingerprint: string; redacted: Record<string, unknown> };
  /** The command's options that decide what was sent and judged (seed, runs, strict, concurrency, only, …). */
  options: Record<string, unknown>;
  /** --sign-key: the SHA-256 of the SPKI DER public key whose Ed25519 signature report.json.sig holds; set before the digest. */
  signedBy?: { algorithm: 'ed25519'; publicKey: string };
}
