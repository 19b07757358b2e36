/**
 * `npm run cli -- runs demo | head -3`: once the reader is gone, writing to the pipe fails with EPIPE,
 * which Node throws as an unhandled 'error' event (a stack trace, and a sync killed halfway). The reader
 * has what it wanted: further output to that stream is dropped quietly and the command finishes as usual
 * (a sync still checkpoints and records its run).
 */
export function ignoreBrokenPipes(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
      throw error;
    });
  }
}
