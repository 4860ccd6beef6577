/** One dispatched Server-Sent Event. */
export interface SseEvent {
  /** `event:` ('message' when the server named none). */
  type: string;
  /** The `data:` lines, joined by newlines. */
  data: string;
  /** The last `id:` seen on the stream so far (the spec keeps it across events): sent back as Last-Event-ID. */
  lastEventId: string;
}

interface SseHandlers {
  event(event: SseEvent): void;
  /** The server's `retry:` (milliseconds before reconnecting). */
  retry(ms: number): void;
}

/**
 * The text/event-stream format as the HTML standard parses it (what EventSource does inside),
 * fed with decoded chunks of a fetch body: lines end with CRLF, LF or CR, `:` starts a comment
 * (the heartbeat), a blank line dispatches the event gathered so far, an event without data is
 * dropped, and `id:` persists until the next one.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private type = '';
  private lastEventId = '';

  constructor(private readonly handlers: SseHandlers) {}

  push(chunk: string): void {
    this.buffer += chunk;
    let start = 0;
    for (;;) {
      const lineEnd = this.buffer.slice(start).search(/[\r\n]/);
      if (lineEnd === -1) break;
      const end = start + lineEnd;
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for the next.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, end));
      start = end + (this.buffer[end] === '\r' && this.buffer[end + 1] === '\n' ? 2 : 1);
    }
    this.buffer = this.buffer.slice(start);
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.type = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.handlers.retry(Number(value));
  }

  private dispatch(): void {
    const data = this.data;
    const type = this.type;
    this.data = [];
    this.type = '';
    if (data.length === 0) return;
    this.handlers.event({ type: type || 'message', data: data.join('\n'), lastEventId: this.lastEventId });
  }
}
