/**
 * The `fetch` handed to the AI SDK providers. It does two things the SDK does not:
 * - caps the response body: the stream is counted as the SDK reads it, and one byte past `maxBytes` errors the
 *   stream (and cancels the HTTP response), so an oversized answer is an error and never a truncated parse;
 * - records what happened at the transport level (status, transport failure, cap hit) in `state`, so the client can
 *   classify the SDK's error without reading it: SDK errors carry response and request bodies, which we must never
 *   keep or show.
 */
export interface FetchState {
  /** HTTP status of the response, once headers arrived. */
  status?: number;
  /** The connection failed (refused, reset, dropped mid-body) — not an abort and not the cap. */
  transportFailed?: boolean;
  /** Content-Type of the response (to tell an HTML page from a broken envelope in error messages). */
  contentType?: string;
  /** Body bytes read so far. */
  bytes?: number;
  /** The body went past the cap. */
  tooLarge?: boolean;
  /** Requests sent (the SDK's retries are off; this lets tests and callers assert it). */
  requests: number;
}

type Fetch = typeof globalThis.fetch;

export function createCappedFetch(maxBytes: number, state: FetchState, baseFetch: Fetch = globalThis.fetch): Fetch {
  return async (input, init) => {
    state.requests++;
    let response: Response;
    try {
      // A redirect could forward the prompt to another host than the one `model check` described: refuse it.
      response = await baseFetch(input, { ...init, redirect: 'error' });
    } catch (error) {
      if (!init?.signal?.aborted) state.transportFailed = true;
      throw error;
    }
    state.status = response.status;
    state.contentType = response.headers.get('content-type') ?? undefined;
    state.bytes = 0;
    // Null-body statuses cannot be re-wrapped in a Response with a stream.
    if (!response.body || [101, 204, 205, 304].includes(response.status)) return response;
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
    let seen = 0;
    const capped = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (!init?.signal?.aborted) state.transportFailed = true;
          controller.error(error);
          return;
        }
        if (chunk.done) {
          controller.close();
          return;
        }
        seen += chunk.value.byteLength;
        state.bytes = seen;
        if (seen > maxBytes) {
          state.tooLarge = true;
          // Stop downloading: cancelling the reader closes the connection instead of draining 10 MB.
          void reader.cancel().catch(() => undefined);
          controller.error(new Error('response_too_large'));
          return;
        }
        controller.enqueue(chunk.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(capped, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
