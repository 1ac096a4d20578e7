// svc-conformance openapi: a valid OpenAPI 3.1 document (by @readme/openapi-parser, a maintained
// validator, which is first shown refusing a broken one), whose schemas give the kit's own verdict
// on every example of schemas/examples/.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileErrors, validate } from '@readme/openapi-parser';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../core/operations.js';
import { isSvcDate, isSvcDateTime, SVC_DATE_FORMAT, SVC_DATETIME_FORMAT } from '../schemas/formats.js';
import { validateSchema, type SchemaId } from '../schemas/index.js';
import { runCli } from './cli-harness.js';

const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
const ROOT = new URL('..', import.meta.url).pathname;

// The document as JSON.parse gives it: the tests read it untyped, their assertions being the check.
async function printed(options: string[] = ['--server', 'https://sandbox.example.test']) {
  const result = await runCli(['openapi', ...options]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe('svc-conformance openapi', () => {
  it('prints an OpenAPI 3.1 document the validator accepts, and the validator refuses a broken one', async () => {
    const doc = await printed();
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
    expect(result.valid, compileErrors(result)).toBe(true);
    const broken = structuredClone(doc);
    broken.paths['/api/v3/pg/order/create'].post.requestBody.content['application/json'].schema = {
      $ref: '#/components/schemas/no-such-schema',
    };
    expect((await validate(broken as Parameters<typeof validate>[0])).valid).toBe(false);
  });

  it('has every operation (extensions marked), every webhook event, and the signature scheme', async () => {
    const doc = await printed();
    for (const op of Object.values(OPERATIONS))
      expect(doc.paths[op.path].post).toMatchObject({ summary: op.name, 'x-svc-extension': op.extension });
    expect(Object.keys(doc.webhooks)).toHaveLength(8);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-KEY',
      description: expect.stringMatching(/HMAC-SHA256.*X-TIMESTAMP/),
    });
    expect(doc.servers).toEqual([{ url: 'https://sandbox.example.test' }]);
  });

  // Redocly's recommended rules, as a team's API pipeline would run them on the document (offline:
  // the CLI is a dev dependency, one bundled file; telemetry and the update check are turned off).
  function redoclyLint(doc: Record<string, unknown>): { code: number | null; problems: Array<{ ruleId: string; message: string }> } {
    const dir = mkdtempSync(join(tmpdir(), 'svc-redocly-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
    const lint = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--extends=recommended', '--format=json', 'openapi.json'],
      {
        cwd: dir,
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const problems = (JSON.parse(lint.stdout) as { problems: Array<{ ruleId: string; message: string }> }).problems;
    return { code: lint.status, problems: problems.map(({ ruleId, message }) => ({ ruleId, message })) };
  }

  it("passes Redocly's recommended rules, with --server and without it; the linter is shown refusing a document without servers", async () => {
    expect(redoclyLint(await printed())).toEqual({ code: 0, problems: [] });
    const placeholder = await printed([]);
    expect(placeholder.servers).toEqual([
      expect.objectContaining({ url: '{baseUrl}', variables: { baseUrl: { default: 'https://sandbox.example.test' } } }),
    ]);
    expect(redoclyLint(placeholder)).toEqual({ code: 0, problems: [] });
    const { servers: _servers, ...serverless } = await printed();
    expect(redoclyLint(serverless)).toMatchObject({ code: 1, problems: [expect.objectContaining({ ruleId: 'no-empty-servers' })] });
  }, 30_000);

  it('declares the signature of every webhook as its security, as an operation declares X-API-KEY', async () => {
    const doc = await printed();
    expect(doc.components.securitySchemes.webhookSignature).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-SIGNATURE' });
    for (const [event, hook] of Object.entries<{ post: { security: unknown; operationId: string } }>(doc.webhooks)) {
      expect(hook.post.security, event).toEqual([{ webhookSignature: [] }]);
      expect(hook.post.operationId, event).toMatch(/^(payment|payout)[A-Z][a-z]+Webhook$/);
    }
  });

  /** The document as an OpenAPI 3.0 tool (Prism) reads it: every keyword beside a $ref dropped. */
  const refSiblingsDropped = (doc: unknown): unknown =>
    JSON.parse(JSON.stringify(doc), (_key, value: unknown) =>
      typeof value === 'object' && value !== null && '$ref' in value ? { $ref: value.$ref } : value,
    );

  it.each([
    ['as an OpenAPI 3.1 tool reads the document', (doc: unknown) => doc],
    ['with every keyword beside a $ref dropped, as OpenAPI 3.0 tools such as Prism read it', refSiblingsDropped],
  ])("gives the kit's own verdict on every example of the request, envelope and record schemas, %s", async (_, read) => {
    const doc = read(await printed()) as Record<string, unknown>;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    // The document names the kit's two date formats (a real calendar date, beyond the pattern); a tool
    // that does not know them checks the pattern alone. With them, the verdicts must be the kit's.
    ajv.addFormat(SVC_DATETIME_FORMAT, { type: 'string', validate: isSvcDateTime });
    ajv.addFormat(SVC_DATE_FORMAT, { type: 'string', validate: isSvcDate });
    ajv.addSchema({ ...doc, $id: 'https://openapi.test/doc.json' });
    const ids = new Set<SchemaId>([
      'webhook-event',
      'error-envelope',
      ...Object.values(OPERATIONS).flatMap((op) => [op.request, op.record] as SchemaId[]),
    ]);
    let compared = 0;
    for (const id of ids) {
      const examples = JSON.parse(readFileSync(join(ROOT, 'schemas/examples', `${id}.json`), 'utf8')) as Array<{
        description: string;
        data: unknown;
      }>;
      const check = ajv.getSchema(`https://openapi.test/doc.json#/components/schemas/${id}`)!;
      for (const example of examples) {
        expect(check(example.data), `${id}: ${example.description}`).toBe(validateSchema(id, example.data).valid);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(60);
  });

  it('writes --out, and refuses a --server that is not a URL (exit 2)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'svc-openapi-')), 'openapi.json');
    expect((await runCli(['openapi', '--out', out])).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).openapi).toBe('3.1.0');
    expect(await runCli(['openapi', '--server', 'not a url'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--server "not a url" is not a URL/),
    });
  });
});
