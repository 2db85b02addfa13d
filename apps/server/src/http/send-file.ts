import type { FastifyReply } from "fastify";
import type { Readable } from "node:stream";

/** Sends a download with the spec's file name (ASCII fallback plus the UTF-8 form). */
export function sendDownload(
  reply: FastifyReply,
  file: { fileName: string; content: Buffer },
  contentType: string,
) {
  return downloadHeaders(reply, file.fileName, contentType).send(file.content);
}

/** Sends a download whose body is written while it is read (a report streamed from the database). */
export function sendStreamedDownload(
  reply: FastifyReply,
  file: { fileName: string; contentType: string; body: Readable },
) {
  return downloadHeaders(reply, file.fileName, file.contentType).send(file.body);
}

function downloadHeaders(reply: FastifyReply, fileName: string, contentType: string): FastifyReply {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/"/g, "'");
  return reply
    .header("content-type", contentType)
    .header(
      "content-disposition",
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    )
    .header("cache-control", "no-store");
}
