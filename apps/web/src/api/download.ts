import { useMutation } from "@tanstack/react-query";
import { apiDownload, type QueryParams } from "./api-client";

export type DownloadRequest = { path: string; query?: QueryParams; fallbackName: string };

/** Hands a downloaded file to the browser under the given name. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.rel = "noopener";
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers read the blob after click() returns.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * A report download as a mutation, so a failure passes the app-wide error catalogue and the button
 * can show it is busy. The file keeps the server's name.
 */
export function useDownload() {
  return useMutation({
    mutationFn: async (request: DownloadRequest) => {
      const file = await apiDownload(request.path, {
        query: request.query,
        fallbackName: request.fallbackName,
      });
      saveFile(file.blob, file.filename);
      return file.filename;
    },
  });
}
