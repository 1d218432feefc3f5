// Request bodies the tests of the body limits send (lib/input/body.test.ts, proxy.test.ts).

/** A body streamed in 64 KiB chunks with no Content-Length (Transfer-Encoding: chunked). */
export function streamed(bytes: number): ReadableStream<Uint8Array> {
  let left = bytes;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const n = Math.min(left, 64 * 1024);
      left -= n;
      controller.enqueue(new Uint8Array(n).fill(120));
    },
  });
}

/** JSON arrays nested `levels` deep. */
export const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
