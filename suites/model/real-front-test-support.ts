// Test support: a "real deployment": the reference sandbox behind a loopback front whose /sandbox/*
// paths answer 404, counted, so a test sees that nothing sandbox-only reached it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock } from '../../core/clock.js';
import { virtualClock } from '../../core/clock-test-support.js';
import { startSandbox, type RunningSandbox, type StartOptions } from '../../sandbox/index.js';
import { checkRunner, type SandboxTarget } from '../check-test-support.js';
import type { TargetConfig } from '../config.js';
import { fillSettings, runNumberAt } from '../settings.js';
import { closeRunState, createRunState, type RunState } from '../run-state.js';
import { OPERATION_PATHS } from '../../sandbox/paths.js';
import { decimalMinus, decimalOf, decimalText } from '../requests.js';

export interface RealFront {
  sandbox: RunningSandbox;
  /** Every /sandbox/* path the front was asked for, in order. */
  controlRequests: string[];
  /** A run of its own against the front (a fresh run state: its own run number). */
  target(seed?: number, runs?: number, edit?: (config: TargetConfig) => TargetConfig): SandboxTarget;
  close(): Promise<void>;
}

let runCounter = 0;

export interface FrontOptions {
  /**
   * Other activity on the merchant's wallet, as another run's payouts would make it: the minor units
   * gone from the balance by the time the front answers its n-th Balance Inquiry (1-based, cumulative).
   */
  otherActivity?: (n: number) => bigint;
  /** Paths the deployment refuses with 422 (a target whose records never move where the model would take them). */
  refuse?: readonly string[];
}

export async function realFront(options: StartOptions = {}, clock: Clock = virtualClock(), front: FrontOptions = {}): Promise<RealFront> {
  const sandbox = await startSandbox({ port: 0, clock: clock.now, ...options });
  const upstream = new URL(sandbox.config.baseUrl).origin;
  const controlRequests: string[] = [];
  let balanceReads = 0;
  const server = createServer((req, res) => void forward(req, res));
  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if ((req.url ?? '').startsWith('/sandbox/')) {
      controlRequests.push(req.url!);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: false, code: 404, message: 'Not Found' }));
      return;
    }
    if (front.refuse?.includes(req.url ?? '')) {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: false, code: 422, message: 'refused by this deployment' }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(name))
        headers[name] = value;
    const method = req.method ?? 'GET';
    const answer = await fetch(upstream + req.url, {
      method,
      headers,
      ...(['GET', 'HEAD'].includes(method) ? {} : { body: Buffer.concat(chunks) }),
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) out[name] = value;
    });
    let body: Buffer = Buffer.from(await answer.arrayBuffer());
    if (front.otherActivity !== undefined && req.url === OPERATION_PATHS.balanceInquiry && answer.status === 200)
      body = lowered(body, front.otherActivity(++balanceReads));
    res.writeHead(answer.status, out);
    res.end(body);
  }
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const opened: RunState[] = [];
  return {
    sandbox,
    controlRequests,
    target(seed = 42, runs = 3, edit = (c) => c) {
      const config = structuredClone(sandbox.config) as TargetConfig;
      delete config.webhooks;
      // A real deployment's config names no spare wallet unless its owner gives one, nor the reference sandbox.
      if (config.fixtures !== undefined) delete config.fixtures.spareWallet;
      delete config.target;
      const given = { clock, seed, runs, runNumber: runNumberAt(clock.now()) + runCounter++, timeoutMs: 5_000 };
      const state = createRunState(fillSettings(given, edit({ ...config, baseUrl }), clock));
      opened.push(state);
      return { sandbox, state, run: checkRunner(state), close: () => closeRunState(state) };
    },
    async close() {
      for (const state of opened) await state.client.close();
      server.closeAllConnections();
      await new Promise<void>((closed) => server.close(() => closed()));
      await sandbox.close();
    },
  };
}

/** A Balance Inquiry answer with `minor` minor units (of two decimals) taken off its balance. */
function lowered(body: Buffer, minor: bigint): Buffer {
  const json = JSON.parse(body.toString('utf8')) as { data: { balance: string } };
  json.data.balance = decimalText(decimalMinus(decimalOf(json.data.balance)!, { units: minor, scale: 2 }));
  return Buffer.from(JSON.stringify(json));
}
