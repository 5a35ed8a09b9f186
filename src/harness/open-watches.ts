// Keeps hold of the watch streams a cluster is serving, so faults.dropWatches() can end them the
// way a real apiserver's connection drop ends them: the stream simply closes.
export class OpenWatches {
  private readonly open = new Set<() => void>();

  get size(): number {
    return this.open.size;
  }

  /** A response that passes the watch stream through and can be ended from here. */
  track(response: Response): Response {
    const source = response.body;
    if (!source) return response;
    const reader = source.getReader();
    let ended = false;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const end = () => {
      if (ended) return;
      ended = true;
      this.open.delete(drop);
      void reader.cancel().catch(() => undefined);
    };
    const drop = () => {
      if (ended) return;
      end();
      controller.close();
    };
    const stream = new ReadableStream<Uint8Array>(
      {
        start(c) {
          controller = c;
        },
        async pull(c) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (ended) return;
          if (done) {
            end();
            c.close();
          } else c.enqueue(value!);
        },
        cancel() {
          end();
        },
      },
      // Pull only when the client reads, so the server side's backlog accounting still sees a slow reader.
      { highWaterMark: 0 },
    );
    this.open.add(drop);
    return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** Ends every open watch; answers how many were open. */
  dropAll(): number {
    const drops = [...this.open];
    drops.forEach((drop) => drop());
    return drops.length;
  }
}
