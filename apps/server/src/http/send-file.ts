import type { FastifyReply } from "fastify";
import type { Readable } from "node:stream";

/** Sends a download with the spec's file name (ASCII fallback plus the UTF-8 form). */
export function sendDownload(
  reply: FastifyReply,
  file: { fileName: string; content: Buffer },
  contentType: string,
) {
  const ascii = file.fileName.replace(/[^\x20-\x7e]/g, "_").replace(/"/g, "'");
  return reply
    .header("content-type", contentType)
    .header(
      "content-disposition",
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    )
    .header("cache-control", "no-store")
    .send(file.content);
}

/** Sends a download whose body is written while it is read (a report streamed from the database). */
export function sendStreamedDownload(
  reply: FastifyReply,
  file: { fileName: string; contentType: string; body: Readable },
) {
  const ascii = file.fileName.replace(/[^\x20-\x7e]/g, "_").replace(/"/g, "'");
  return reply
    .header("content-type", file.contentType)
    .header(
      "content-disposition",
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    )
    .header("cache-control", "no-store")
    .send(file.body);
}
