// The hooks' input: standard input read to its end, bounded in size and in time (a host
// writes its payload and closes the pipe). Through process.stdin, whose pipe libuv polls:
// a read of descriptor 0 on the thread pool was tried (it spares Node's socket modules,
// about 1 ms), but a writer that never closes then leaves a thread blocked in read(2),
// and Node joins its thread pool at exit: the hook never ended.

export interface StdinBytes {
  /** What arrived, at most `maxBytes`. */
  bytes: Buffer;
  /** More than `maxBytes` arrived (the rest was not kept). */
  tooLarge: boolean;
}

/** Reads standard input until its end, `maxBytes` bytes, or `waitMs`, whichever comes first; never rejects. */
export function readStdin(maxBytes: number, waitMs: number): Promise<StdinBytes> {
  const chunks: Buffer[] = [];
  let total = 0;
  let tooLarge = false;
  return new Promise<StdinBytes>((resolve) => {
    const stdin = process.stdin;
    const done = () => {
      clearTimeout(timer);
      stdin.off('data', onData).off('end', done).off('error', done).off('close', done);
      stdin.pause();
      resolve({ bytes: Buffer.concat(chunks, total), tooLarge });
    };
    const onData = (chunk: Buffer) => {
      if (total + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - total));
        total = maxBytes;
        tooLarge = true;
        done();
        return;
      }
      chunks.push(chunk);
      total += chunk.length;
    };
    const timer = setTimeout(done, waitMs);
    timer.unref();
    stdin.on('data', onData).on('end', done).on('error', done).on('close', done);
  });
}
