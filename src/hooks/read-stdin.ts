/**
 * Reads a hook's stdin to the end, as bytes (the pre-push gate hands the very same bytes to the
 * hook it chains). Hosts write one JSON object and close the pipe; the cap keeps a
 * runaway writer from growing the process (a Write of a huge file carries its whole content).
 * Whatever is read past the cap is dropped and the payload is then malformed, which fails open.
 */
export function readStdin(stream: NodeJS.ReadableStream, maxBytes = 64 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    stream.on('data', (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      size += buffer.length
      if (size <= maxBytes) chunks.push(buffer)
    })
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
  })
}
