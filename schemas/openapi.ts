// The interface and the profile's extensions as an OpenAPI 3.1 document, built from the kit's own
// operation table and JSON Schemas, so it cannot drift from what the kit checks.
import { OPERATIONS, type OperationName } from '../core/operations.js';
import { PROFILE_VERSION } from '../core/report.js';
import { WEBHOOK_EVENT_NAMES, WEBHOOK_EVENTS } from '../core/webhooks.js';
import { SVC_DATE_FORMAT, SVC_DATETIME_FORMAT } from './formats.js';
import { loadSchema, schemaIds, type SchemaId } from './index.js';

const SIGNATURE_SCHEME = [
  "Every request carries `X-API-KEY` (the merchant's public key), `X-TIMESTAMP` (UNIX seconds, within ±300 s of the",
  "server's clock) and `X-SIGNATURE`: the lower-case hex HMAC-SHA256, keyed with the merchant's secret key, of the",
  "request body's exact bytes followed by the X-TIMESTAMP text. The body is the canonical text of the payload",
  '(P-SIGN-1: object keys sorted by code point at every depth, no whitespace, strings as JSON.stringify writes',
  'them, non-ASCII as itself, numbers in their shortest form). A (timestamp, signature) pair is used once.',
  "Webhooks are signed the same way with the receiving merchant's secret key (P-HOOK-1).",
].join(' ');

/** The schemas a document needs: every schema but the kit's own config and report. */
const API_SCHEMAS = schemaIds.filter((id) => id !== 'config' && id !== 'report');

/** A $ref with rules beside it, as allOf: OpenAPI 3.0 tools such as Prism drop a $ref's siblings. */
function refBeside({ $ref, title, description, ...rules }: Record<string, unknown>): Record<string, unknown> {
  const notes = Object.fromEntries(Object.entries({ title, description }).filter(([, text]) => text !== undefined));
  return { ...notes, ...(Object.keys(rules).length === 0 ? { $ref } : { allOf: [{ $ref }, rules] }) };
}

/** A schema as a component: no $id or $schema of its own, references to other files pointed at components. */
function component(id: SchemaId): Record<string, unknown> {
  const { $id: _id, $schema: _schema, ...schema } = loadSchema(id);
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) => {
    if (typeof value === 'object' && value !== null && '$ref' in value) return refBeside(value);
    if (key !== '$ref' || typeof value !== 'string') return value;
    const file = /^([a-z-]+)\.schema\.json(#.*)?$/.exec(value);
    if (file !== null) return `#/components/schemas/${file[1]}${file[2] ? file[2].slice(1) : ''}`;
    if (value.startsWith('#/')) return `#/components/schemas/${id}${value.slice(1)}`;
    return value;
  }) as Record<string, unknown>;
}

const ref = (id: SchemaId) => ({ $ref: `#/components/schemas/${id}` });

/** What a success answers: the operation's own envelope, or the general one with the record as `data`. */
function successSchema(name: OperationName): Record<string, unknown> {
  const record = OPERATIONS[name].record as SchemaId;
  if (record.endsWith('-envelope')) return ref(record);
  return { allOf: [ref('success-envelope'), { type: 'object', properties: { data: ref(record) } }] };
}

/** An error answer: Payout Status's carries no data (P-PAYOUT-4), as the suites check it. */
function errorResponse(name: OperationName, description: string) {
  const envelope = name === 'payoutStatus' ? 'payout-status-error-envelope' : 'error-envelope';
  return { description, content: { 'application/json': { schema: ref(envelope) } } };
}

function operation(name: OperationName) {
  const op = OPERATIONS[name];
  const success = { description: 'Success', content: { 'application/json': { schema: successSchema(name) } } };
  return {
    post: {
      operationId: name,
      summary: op.name,
      tags: [op.extension ? 'Profile extension (P-OPS)' : 'Interface'],
      ...(op.extension
        ? {
            description:
              'An extension: the interface names this operation without showing its path or record; the conformance profile (P-OPS) fills them in, and a deployment may serve it at another path.',
          }
        : {}),
      'x-svc-extension': op.extension,
      parameters: [{ $ref: '#/components/parameters/XTimestamp' }, { $ref: '#/components/parameters/XSignature' }],
      security: [{ apiKey: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: ref(op.request) } } },
      responses: {
        ...(name === 'createOrder' ? { '201': success } : {}),
        '200': success,
        '400': errorResponse(name, 'The body is not JSON, or breaks the request schema (P-ERR-4)'),
        '401': errorResponse(name, 'Authentication failed: key, timestamp or signature (P-AUTH)'),
        '404': errorResponse(name, 'No such order, payout or wallet for this merchant'),
        '409': errorResponse(name, 'A duplicate order_id or payout_order_id (P-DUP)'),
        '422': errorResponse(name, "The request cannot be carried out in the record's state"),
        '429': errorResponse(name, 'Too many requests; Retry-After may say how long to wait'),
      },
    },
  };
}

/** A required header parameter: a string, of `pattern` when given. */
function header(name: string, description: string, pattern?: string) {
  return { name, in: 'header', required: true, description, schema: { type: 'string', ...(pattern !== undefined ? { pattern } : {}) } };
}

function webhook(event: (typeof WEBHOOK_EVENT_NAMES)[number]) {
  const spec = WEBHOOK_EVENTS[event];
  return {
    post: {
      // Unique beside the API's own operation ids: payment.success → paymentSuccessWebhook.
      operationId: `${event.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())}Webhook`,
      summary: `${event}: the ${spec.subject === 'payout' ? 'payout' : 'order'} is ${spec.state}`,
      description: `Delivered to the merchant's webhook URL; retried with the same event_id until answered 200 within 10 s (P-HOOK-3). The status operation, not the event, decides final state (P-HOOK-4).`,
      // Declared as the webhook's security, so a tool or linter does not take webhooks for open endpoints.
      security: [{ webhookSignature: [] }],
      parameters: [header('X-TIMESTAMP', 'UNIX seconds of this attempt'), header('X-EVENT-ID', 'the event_id, the same on every attempt')],
      requestBody: { required: true, content: { 'application/json': { schema: ref('webhook-event') } } },
      responses: {
        '200': { description: 'Acknowledged (also for a redelivery)' },
        '401': { description: 'Refused: a signature or timestamp that does not verify' },
      },
    },
  };
}

/** The OpenAPI 3.1 document; `server` is the base URL to name, if any. */
export function openApiDocument(server?: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment gateway and payout banking API',
      version: `profile ${PROFILE_VERSION}`,
      license: { name: 'MIT', identifier: 'MIT' },
      description: `The published interface and the conformance profile's extension operations (P-OPS) and webhooks (P-HOOK), as svc-conformance checks them. ${SIGNATURE_SCHEME} Two string formats are the kit's own: ${SVC_DATETIME_FORMAT} (DD-MM-YYYY hh:mm AM/PM) and ${SVC_DATE_FORMAT} (DD-MM-YYYY), each a real calendar date; a tool that does not know them checks their pattern alone.`,
    },
    // Without a server a tool has nowhere to send and a linter refuses the document: a placeholder to fill in.
    servers: [
      server !== undefined
        ? { url: server }
        : {
            url: '{baseUrl}',
            description: 'your deployment (svc-conformance openapi --server URL names it)',
            variables: { baseUrl: { default: 'https://sandbox.example.test' } },
          },
    ],
    tags: [
      { name: 'Interface', description: 'Operations the interface shows' },
      { name: 'Profile extension (P-OPS)', description: 'Operations the interface names; the profile fills in paths and records' },
    ],
    paths: Object.fromEntries((Object.keys(OPERATIONS) as OperationName[]).map((name) => [OPERATIONS[name].path, operation(name)])),
    webhooks: Object.fromEntries(WEBHOOK_EVENT_NAMES.map((event) => [event, webhook(event)])),
    components: {
      schemas: Object.fromEntries(API_SCHEMAS.map((id) => [id, component(id)])),
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: SIGNATURE_SCHEME },
        webhookSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-SIGNATURE',
          description:
            "A webhook delivery's signature (P-HOOK-1): HMAC-SHA256 (lower-case hex) of the body bytes + X-TIMESTAMP, keyed with the receiving merchant's secret key; the receiver verifies it and answers 401 when it does not match.",
        },
      },
      parameters: {
        XTimestamp: header('X-TIMESTAMP', "UNIX seconds, within the server's window (±300 s by default)", '^[0-9]+$'),
        XSignature: header(
          'X-SIGNATURE',
          "HMAC-SHA256 (lower-case hex) of the body bytes + X-TIMESTAMP, keyed with the merchant's secret key",
          '^[0-9a-f]{64}$',
        ),
      },
    },
  };
}
