/**
 * fetch that reads the whole body before it resolves. An SDK's timeout is cleared once fetch
 * resolves, so with a plain fetch a server that sends headers and then stalls would hold the
 * attempt forever; reading the body inside fetch keeps it under the timeout (and its retries).
 */
export async function bufferedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  const body = await response.arrayBuffer();
  // 204/304 and friends must be rebuilt without a body
  const nullBody = body.byteLength === 0 && [101, 204, 205, 304].includes(response.status);
  return new Response(nullBody ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
