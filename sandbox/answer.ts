// The answers the sandbox builds itself (the JSON envelopes) are this, not a WHATWG Response: a
// Response costs a Headers and a body stream per request, and the socket layer then reads the stream
// back. An Answer holds its text and reads like a Response where the sandbox reads one; it becomes a
// real Response only where one leaves the app in-process (app.handle).

/**
 * Response headers as a Headers keeps them: names lowercased, iterated in sorted order. Nearly every
 * answer keeps the headers it was built with, often a record shared by every answer (envelope.ts):
 * that record is read as it is, and copied only when a header is set.
 */
export class AnswerHeaders {
  private values: Record<string, string>;
  /** Whether `values` is this answer's own, or still the record it was built with. */
  private own = false;

  constructor(init: Record<string, string> = {}) {
    this.values = init;
    for (const name in init) {
      if (name !== name.toLowerCase()) {
        this.values = Object.create(null) as Record<string, string>;
        this.own = true;
        for (const each in init) this.values[each.toLowerCase()] = init[each]!;
        break;
      }
    }
  }

  get(name: string): string | null {
    const key = name.toLowerCase();
    return Object.hasOwn(this.values, key) ? this.values[key]! : null;
  }

  has(name: string): boolean {
    return Object.hasOwn(this.values, name.toLowerCase());
  }

  set(name: string, value: string): void {
    if (!this.own) {
      // Without a prototype, so a name like __proto__ is a header like any other.
      this.values = Object.assign(Object.create(null) as Record<string, string>, this.values);
      this.own = true;
    }
    this.values[name.toLowerCase()] = value;
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const name of Object.keys(this.values).sort()) callback(this.values[name]!, name);
  }
}

export class Answer {
  readonly headers: AnswerHeaders;

  constructor(
    readonly status: number,
    /** The body's text, sent as UTF-8. */
    readonly body: string,
    headers: Record<string, string> = {},
  ) {
    this.headers = new AnswerHeaders(headers);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  /** The body as sent. */
  bytes(): Buffer {
    return Buffer.from(this.body, 'utf8');
  }

  text(): Promise<string> {
    return Promise.resolve(this.body);
  }

  json(): Promise<unknown> {
    return Promise.resolve().then(() => JSON.parse(this.body) as unknown);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.bytes();
    return Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  }

  clone(): Answer {
    const headers: Record<string, string> = {};
    this.headers.forEach((value, name) => (headers[name] = value));
    return new Answer(this.status, this.body, headers);
  }

  toResponse(): Response {
    const headers: Array<[string, string]> = [];
    this.headers.forEach((value, name) => headers.push([name, value]));
    return new Response(this.body, { status: this.status, headers });
  }
}

/** What the app and its routes answer: an Answer, or a Response (the checkout's pages, the HTML faults). */
export type SandboxResponse = Answer | Response;

/** The answer as a WHATWG Response, for a caller outside the app. */
export function asResponse(answer: SandboxResponse): Response {
  return answer instanceof Answer ? answer.toResponse() : answer;
}

/** An answer as a socket layer writes it. */
export interface WrittenAnswer {
  body: string | Buffer;
  headers: Record<string, string>;
}

/**
 * The body, read once, and the headers as a record, for a socket layer to write. An Answer's body
 * stays text (written as UTF-8): node writes a text body in one go with the head, bytes in two.
 * An Answer's is at hand, so it comes without a promise; only a Response's stream is waited for.
 */
export function answerBody(answer: SandboxResponse): WrittenAnswer | Promise<WrittenAnswer> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => (headers[name] = value));
  if (answer instanceof Answer) return { body: answer.body, headers };
  return answer.arrayBuffer().then((bytes) => ({ body: Buffer.from(bytes), headers }));
}
