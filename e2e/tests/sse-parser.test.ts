import { type SseEvent, SseParser } from '../../frontend/src/features/notifications/live/sse-parser';

/** The web app's reading of text/event-stream (frontend/src/features/notifications/live/sse-parser.ts), fed in chunks. */
describe('Server-Sent Events parsing (the live notifications client)', () => {
  function parse(chunks: string[]): { events: SseEvent[]; retries: number[] } {
    const events: SseEvent[] = [];
    const retries: number[] = [];
    const parser = new SseParser({ event: (event) => events.push(event), retry: (ms) => retries.push(ms) });
    for (const chunk of chunks) parser.push(chunk);
    return { events, retries };
  }

  it('reads retry, named events with ids, and skips heartbeats', () => {
    const { events, retries } = parse([
      'retry: 3000\n\n',
      'event: notification\ndata: {"unreadCount":0}\n\n',
      ': ping\n\n',
      'id: c1\nevent: notification\ndata: {"unreadCount":1}\n\n',
    ]);
    expect(retries).toEqual([3000]);
    expect(events).toEqual([
      { type: 'notification', data: '{"unreadCount":0}', lastEventId: '' },
      { type: 'notification', data: '{"unreadCount":1}', lastEventId: 'c1' },
    ]);
  });

  it('joins data lines, keeps the last id for later events, and takes CRLF and CR split anywhere', () => {
    const { events } = parse(['id: a', 'b\r', '\ndata: one\rdata:two\r\n', '\r', '\ndata: three\n', '\n']);
    expect(events).toEqual([
      { type: 'message', data: 'one\ntwo', lastEventId: 'ab' },
      { type: 'message', data: 'three', lastEventId: 'ab' },
    ]);
  });

  it('drops an event without data, ignores unknown fields and a retry that is no number; a bare data line is an empty message', () => {
    const { events, retries } = parse(['event: notification\n\n', 'retry: soon\nfoo\ndata\n\n']);
    expect(retries).toEqual([]);
    expect(events).toEqual([{ type: 'message', data: '', lastEventId: '' }]);
  });
});
