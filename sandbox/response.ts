// What the sandbox answers: the part of the Fetch API's Response its readers use, over a text body
// read without a stream. Response itself made each answer a stream to build and read, a sixth of an embedded run's CPU.

/** An answer's status, headers and text; read as often as wanted. */
export class SandboxResponse {
  readonly status: number;
  readonly headers: Headers;

  constructor(
    private readonly body: string,
    init: { status?: number; headers?: Record<string, string> } = {},
  ) {
    this.status = init.status ?? 200;
    this.headers = new Headers(init.headers);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  text(): Promise<string> {
    return Promise.resolve(this.body);
  }

  // As Response.json() is typed: a test reads what it expects.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): Promise<any> {
    return Promise.resolve().then(() => JSON.parse(this.body) as unknown);
  }

  /** The body as UTF-8 bytes. */
  bytes(): Buffer {
    return Buffer.from(this.body, 'utf8');
  }
}
