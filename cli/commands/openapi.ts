// `svc-conformance openapi`: the interface and the profile's extension operations as OpenAPI 3.1.
import { resolve } from 'node:path';
import { openApiDocument } from '../../schemas/openapi.js';
import { writeAtomically } from '../../reports/write.js';
import { UsageError } from '../io.js';
import { defineCommand } from '../options.js';

export const openapiCommand = defineCommand({
  name: 'openapi',
  summary: "Prints the interface and the profile's extension operations and webhooks as an OpenAPI 3.1 document (JSON).",
  usage: 'svc-conformance openapi [--server URL] [--out FILE]',
  options: [
    { name: 'server', value: 'URL', description: 'the base URL to name under servers (default: a {baseUrl} placeholder to fill in)' },
    { name: 'out', value: 'FILE', description: 'write it to FILE instead of stdout' },
  ],
  details: [
    "Built from the same operation table and JSON Schemas the kit checks with; the signature scheme is described under components.securitySchemes, a webhook's X-SIGNATURE as its security. It passes `npx @redocly/cli lint --extends=recommended`.",
  ],
  examples: ['svc-conformance openapi --server https://sandbox.example.test --out openapi.json'],
  async run(options, io) {
    const server = options.server;
    if (server !== undefined && !URL.canParse(server))
      throw new UsageError(`openapi: --server ${JSON.stringify(server)} is not a URL, e.g. https://sandbox.example.test`);
    const text = JSON.stringify(openApiDocument(server), null, 2) + '\n';
    if (options.out === undefined) {
      io.stdout(text);
      return 0;
    }
    const path = resolve(io.cwd, options.out);
    await writeAtomically(path, text).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`openapi: cannot write --out ${options.out}: ${error.code ?? error.message}`);
    });
    io.stdout(`wrote ${path}\n`);
    return 0;
  },
});
