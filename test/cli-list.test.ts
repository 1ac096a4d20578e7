// `list` shows all three catalogs, grouped by the command that judges them, and --kind picks some.
import { describe, expect, it } from 'vitest';
import { clientCatalog } from '../clients/judge.js';
import { receiverCatalog } from '../clients/receiver-judge.js';
import { catalog } from '../suites/catalog.js';
import { runCli } from './cli-harness.js';

interface Listed {
  requirements: Array<{ id: string; kind: string; judgedBy: string; checks: unknown[] }>;
}

describe('svc-conformance list', () => {
  it('lists the server, client and receiver requirements, each group under the command that judges it', async () => {
    const result = await runCli(['list']);
    expect(result.code).toBe(0);
    const headings = result.stdout.split('\n').filter((line) => line.startsWith('== '));
    expect(headings).toEqual([
      `== Server requirements (${catalog().length} requirements, judged by svc-conformance run)`,
      `== Client requirements (${clientCatalog().length} requirements, judged by svc-conformance verify-client)`,
      `== Webhook receiver requirements (${receiverCatalog().length} requirements, judged by svc-conformance verify-receiver)`,
    ]);
    expect(result.stdout).toMatch(/\n {2}MUST {3}CLIENT-HEADERS {2}Every request carries X-API-KEY/);
    expect(result.stdout).toMatch(/\n {2}MUST {3}RECEIVER-[A-Z-]+ {2}/);
    expect(result.stdout).toMatch(
      new RegExp(
        `\\n${catalog().length} server requirements \\(\\d+ checks\\), ${clientCatalog().length} client requirements, ${receiverCatalog().length} receiver requirements\\n$`,
      ),
    );
  });

  it('--kind picks catalogs, in text and in --json', async () => {
    const client = await runCli(['list', '--kind', 'client']);
    expect(client.stdout).toContain('== Client requirements');
    expect(client.stdout).not.toMatch(/== Server|== Webhook|AUTH-ACCEPT|RECEIVER-/);
    const json = JSON.parse((await runCli(['list', '--kind', 'receiver,client', '--json'])).stdout) as Listed;
    expect(json.requirements.map((r) => r.id)).toEqual([...clientCatalog(), ...receiverCatalog()].map((r) => r.id));
    expect(new Set(json.requirements.map((r) => `${r.kind} ${r.judgedBy}`))).toEqual(
      new Set(['client verify-client', 'receiver verify-receiver']),
    );
  });

  it('refuses an unknown --kind with one line naming the kinds, exit 2', async () => {
    const result = await runCli(['list', '--kind', 'clients']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('svc-conformance list: --kind "clients" is not one of server, client, receiver; e.g. --kind client\n');
  });
});
