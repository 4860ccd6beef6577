import { BatchedLogStream, type LogTarget } from './batched-log-stream';

/** A target that records what it was handed and when it was flushed. */
function recordingTarget(): LogTarget & { writes: string[]; flushes: number } {
  const target = {
    writes: [] as string[],
    flushes: 0,
    write(chunk: string) {
      target.writes.push(chunk);
      return true;
    },
    flushSync() {
      target.flushes += 1;
    },
  };
  return target;
}

const line = (n: number): string => `{"n":${n}}\n`;

describe('BatchedLogStream', () => {
  let stream: BatchedLogStream | undefined;
  afterEach(() => {
    stream?.close();
    jest.useRealTimers();
  });

  it('hands lines over in one write once a batch is full, in order', () => {
    const target = recordingTarget();
    stream = new BatchedLogStream(target, 30);
    stream.write(line(1));
    stream.write(line(2));
    expect(target.writes).toEqual([]);
    stream.write(line(3));
    stream.write(line(4));
    expect(target.writes).toEqual([line(1) + line(2) + line(3) + line(4)]);
    stream.write(line(5));
    expect(target.writes).toHaveLength(1);
  });

  it('hands over what it holds on its timer when traffic is light', () => {
    jest.useFakeTimers();
    const target = recordingTarget();
    stream = new BatchedLogStream(target, 8192, 500);
    stream.write(line(1));
    jest.advanceTimersByTime(499);
    expect(target.writes).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(target.writes).toEqual([line(1)]);
    jest.advanceTimersByTime(5000);
    expect(target.writes).toEqual([line(1)]);
  });

  it('writes everything through when flushed synchronously, as at exit', () => {
    const target = recordingTarget();
    stream = new BatchedLogStream(target, 8192);
    stream.write(line(1));
    stream.write(line(2));
    stream.flushSync();
    expect(target.writes).toEqual([line(1) + line(2)]);
    expect(target.flushes).toBe(1);
  });

  it('flushes when the process exits, and no longer once closed', () => {
    const target = recordingTarget();
    const exitListeners = process.listenerCount('exit');
    stream = new BatchedLogStream(target, 8192);
    expect(process.listenerCount('exit')).toBe(exitListeners + 1);
    stream.write(line(1));
    process.listeners('exit').at(-1)?.call(process, 0);
    expect(target.writes).toEqual([line(1)]);
    stream.close();
    expect(process.listenerCount('exit')).toBe(exitListeners);
    stream = undefined;
  });

  it('does not throw at exit when the target is gone', () => {
    const target = recordingTarget();
    target.flushSync = () => {
      throw new Error('SonicBoom destroyed');
    };
    const gone = new BatchedLogStream(target, 8192);
    gone.write(line(1));
    expect(() => process.listeners('exit').at(-1)?.call(process, 0)).not.toThrow();
    clearAll(gone, target);
  });
});

/** close() flushes, which this target refuses: take the hooks down without it. */
function clearAll(stream: BatchedLogStream, target: LogTarget): void {
  target.flushSync = () => undefined;
  stream.close();
}
