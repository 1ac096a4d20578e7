// svc-conformance/harness: a team's client under test, its requests answered by the sandbox in process
// (nock, an optional peer, is loaded only when the harness is installed).
export { installClientHarness, ClientConformanceError, type ClientHarness, type ClientHarnessOptions } from '../clients/harness.js';
