// A request body read as text lines, a chunk of lines at a time, without holding the body: how
// POST /dnc-registries/{registry}/imports streams a registry file of millions of lines into the
// domain's staged import. Only the cutting is done here; what a line means is the domain's
// (src/domain/calling-rules/dnc-registries.rules.ts). A line longer than `maxLineLength` is
// passed on cut to that length plus one character, so that the domain refuses it without the
// service holding a line of any length.
import { StringDecoder } from 'node:string_decoder';

export async function* textLineChunks(
  body: AsyncIterable<Buffer | string>,
  linesPerChunk: number,
  maxLineLength = 1024,
): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  const cut = (line: string) => (line.length > maxLineLength ? line.slice(0, maxLineLength + 1) : line);
  let partial = '';
  let chunk: string[] = [];
  for await (const piece of body) {
    const text = partial + (typeof piece === 'string' ? piece : decoder.write(piece));
    let start = 0;
    for (let end = text.indexOf('\n', start); end >= 0; end = text.indexOf('\n', start)) {
      chunk.push(cut(text.slice(start, end)));
      start = end + 1;
      if (chunk.length === linesPerChunk) {
        yield chunk;
        chunk = [];
      }
    }
    partial = cut(text.slice(start));
  }
  partial = cut(partial + decoder.end());
  // A last line without its newline is a line; the empty string after a final newline is not.
  if (partial.length > 0) chunk.push(partial);
  if (chunk.length > 0) yield chunk;
}
