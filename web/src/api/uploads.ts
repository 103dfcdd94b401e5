import { apiFetch } from "./fetcher.ts";

export type UploadedImage = { imageUrl: string; width: number; height: number };

/** Stores an image for a project's drafts and posts (multipart field `image`, spec §7). */
export function uploadImage(projectId: number, file: File, signal?: AbortSignal): Promise<UploadedImage> {
  const form = new FormData();
  form.append("image", file);
  return apiFetch<UploadedImage>(`/api/projects/${projectId}/upload-image`, { method: "POST", body: form, signal });
}
