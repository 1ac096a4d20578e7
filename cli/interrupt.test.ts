import { describe, expect, it } from 'vitest';
import { exitStatusOf, InterruptRegistry, interruptedLine } from './interrupt.js';

const held = (name: string) => ({ done: `undid ${name}`, failed: `could not undo ${name}` });

describe('InterruptRegistry', () => {
  it('undoes what is still held, newest first, and nothing the command released itself', async () => {
    const registry = new InterruptRegistry();
    const order: string[] = [];
    registry.hold(held('sandbox'), () => void order.push('sandbox'));
    const release = registry.hold(held('client'), () => void order.push('client'));
    registry.hold(held('registration'), () => void order.push('registration'));
    release();
    expect(await registry.interrupt('SIGINT')).toEqual(['undid registration', 'undid sandbox']);
    expect(order).toEqual(['registration', 'sandbox']);
    expect(registry.signal.aborted).toBe(true);
    expect(registry.signal.reason).toBe('SIGINT');
  });

  it('bounds each cleanup: one that never ends, or throws, is said as failed and the rest still run', async () => {
    const registry = new InterruptRegistry(50);
    registry.hold(held('sandbox'), () => undefined);
    registry.hold(held('registration'), () => new Promise(() => {}));
    registry.hold(held('receiver'), () => Promise.reject(new Error('gone')));
    const started = Date.now();
    expect(await registry.interrupt('SIGTERM')).toEqual(['could not undo receiver', 'could not undo registration', 'undid sandbox']);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('keeps what was held once interrupted: a command reaching its own cleanup then does not take it back', async () => {
    const registry = new InterruptRegistry();
    let release: () => void = () => {};
    release = registry.hold(held('client'), () => new Promise((r) => setTimeout(r, 10)));
    registry.hold(held('sandbox'), () => release());
    expect(await registry.interrupt('SIGINT')).toEqual(['undid sandbox', 'undid client']);
  });

  it('says it in one line, also when nothing was held', () => {
    expect(interruptedLine('sign', 'SIGINT', [])).toBe(
      'svc-conformance sign: interrupted (SIGINT): nothing was held, nothing to clean up\n',
    );
    expect(interruptedLine('run', 'SIGTERM', ['a', 'b'])).toBe('svc-conformance run: interrupted (SIGTERM): a, b\n');
    expect(interruptedLine('verify-client', 'EPIPE', ['a'])).toBe(
      'svc-conformance verify-client: interrupted (EPIPE: its output was closed): a\n',
    );
  });
});

describe('exitStatusOf', () => {
  // Ctrl-C and kill as documented; a closed terminal and a closed pipe as a shell reports the signal (128 + its number).
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 130],
    ['SIGHUP', 129],
    ['EPIPE', 141],
  ] as const)('%s: %i', (signal, status) => {
    expect(exitStatusOf(signal)).toBe(status);
  });
});
