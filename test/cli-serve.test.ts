import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSchema } from '../schemas/index.js';
import { FAULT_NAMES } from '../sandbox/faults.js';
import { bindWarning } from '../cli/commands/serve.js';
import { runCli, spawnServe } from './cli-harness.js';

describe('svc-conformance serve', () => {
  it('prints its base URL and a ready config, writes --config-out, serves signed requests, and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-serve-'));
    const configOut = join(dir, 'sandbox.json');
    const { child, stdout, stderr } = await spawnServe(['--config-out', configOut]);
    try {
      const baseUrl = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      expect(baseUrl).toBeDefined();
      const printed = JSON.parse(stdout.slice(stdout.indexOf('{')));
      expect(validateSchema('config', printed)).toEqual({ valid: true, errors: [] });
      expect(JSON.parse(readFileSync(configOut, 'utf8'))).toEqual(printed);
      expect(printed.baseUrl).toBe(baseUrl);
      // P-CLI: every optional key filled, so no check is skipped against the reference sandbox.
      expect(Object.keys(printed.otherMerchant).sort()).toEqual(['apiKey', 'secretKey', 'walletId']);
      expect(Object.keys(printed.otherEnvironment).sort()).toEqual(['apiKey', 'secretKey', 'walletId']);
      expect(Object.keys(printed.fixtures.payouts).sort()).toEqual(['FAILED', 'PENDING', 'PROCESSING', 'REVERSED', 'SUCCESS']);
      expect(printed.fixtures.otherMerchantPayoutOrderId).toEqual(expect.any(String));
      expect(Object.keys(printed.profile.operations).sort()).toEqual([
        'balanceInquiry',
        'orderCancel',
        'orderStatus',
        'transactionInitiation',
      ]);

      const body = JSON.stringify({ svc_wallet_id: printed.merchant.walletId });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const response = await fetch(`${baseUrl}/api/v3/banking/balance`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-api-key': printed.merchant.apiKey,
          'x-timestamp': timestamp,
          'x-signature': createHmac('sha256', printed.merchant.secretKey)
            .update(body + timestamp)
            .digest('hex'),
        },
      });
      expect(response.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stderr()).toMatch(/POST \/api\/v3\/banking\/balance 200/);

      const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      // Stopped as every command is (cli/interrupt.ts): its sandbox closed, said in one line, 130.
      expect(await exit).toBe(130);
      expect(stderr()).toMatch(/svc-conformance serve: interrupted \(SIGTERM\): closed the reference sandbox\n$/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('lists every fault with its rule', async () => {
    const result = await runCli(['serve', '--list-faults']);
    expect(result.code).toBe(0);
    for (const name of FAULT_NAMES) expect(result.stdout).toMatch(new RegExp(`^${name} +P-[A-Z]+-\\d`, 'm'));
  });

  it.each<[string[], RegExp]>([
    [['--fault', 'no-such-fault'], /unknown fault "no-such-fault"; run `svc-conformance serve --list-faults`/],
    [['--port', 'eighty'], /--port takes a whole number from 0 to 65535, not "eighty"/],
    [['--verify', 'sometimes'], /--verify takes raw or canonical/],
    [['--tolerance', '0'], /--tolerance takes a whole number from 1 to 86400, not "0"/],
    [['--config-out', '/nonexistent-dir/sandbox.json'], /cannot write --config-out \/nonexistent-dir\/sandbox.json/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const result = await runCli(['serve', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

describe('serve --config-out', () => {
  it('refuses a symbolic link (it would write the demo secrets into its target) and a folder, exit 2, before listening', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-serve-out-'));
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(dir, 'link.json'));
    const linked = await runCli(['serve', '--config-out', join(dir, 'link.json')]);
    expect(linked).toEqual({
      code: 2,
      stdout: '',
      stderr: `svc-conformance serve: --config-out ${join(dir, 'link.json')} is a symbolic link; the sandbox does not write through links: remove it or give another file\n`,
    });
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');

    mkdirSync(join(dir, 'folder'));
    const folder = await runCli(['serve', '--config-out', join(dir, 'folder')]);
    expect(folder).toEqual({
      code: 2,
      stdout: '',
      stderr: `svc-conformance serve: --config-out ${join(dir, 'folder')} is a folder; give a file name, e.g. --config-out ${join(dir, 'folder', 'sandbox.json')}\n`,
    });
  });

  it('a folder the system will not write in (procfs) is one line naming the file given, not the temporary file it tried', async () => {
    const refused = await runCli(['serve', '--port', '0', '--config-out', '/proc/sandbox.json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^svc-conformance serve: cannot write --config-out \/proc\/sandbox\.json: /);
    expect(refused.stderr).not.toMatch(/\.tmp|sandbox\.json\.\d/);
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('serve on a reachable address', () => {
  // The tests bind loopback only: the decision is checked here, the wiring with the flag below.
  it.each(['0.0.0.0', '::', '192.168.1.20', 'sandbox.internal.example'])('warns when --host %s lets other machines in', (host) => {
    expect(bindWarning(host)).toBe(
      `warning: listening on ${host}, reachable from other machines; anyone who reaches it can use the public demo credentials (--host 127.0.0.1 keeps it on this machine)`,
    );
  });

  it.each(['127.0.0.1', '127.0.0.2', 'localhost', '::1'])('stays quiet on loopback --host %s', (host) => {
    expect(bindWarning(host)).toBeUndefined();
  });

  it('--allow-remote-webhooks lets the registration control request name another host, with no bind warning on loopback', async () => {
    const { child, stdout, stderr } = await spawnServe(['--allow-remote-webhooks', '--quiet']);
    try {
      const printed = JSON.parse(stdout.slice(stdout.indexOf('{')));
      const body = JSON.stringify({ url: 'https://hooks.example.test/svc' });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const response = await fetch(`${printed.baseUrl}/sandbox/webhooks`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-api-key': printed.merchant.apiKey,
          'x-timestamp': timestamp,
          'x-signature': createHmac('sha256', printed.merchant.secretKey)
            .update(body + timestamp)
            .digest('hex'),
        },
      });
      expect(response.status).toBe(200);
      expect(stderr()).not.toMatch(/warning/);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
