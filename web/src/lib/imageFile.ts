import { IMAGE_MAX_ASPECT_RATIO, IMAGE_MAX_BYTES, IMAGE_MAX_DIMENSION_SUM } from "../../../contract/limits.ts";

export type ImageProblem = "drafts.imageTooBig" | "drafts.invalidImageType";

function loadDimensions(file: File): Promise<{ width: number; height: number } | null> {
  const url = URL.createObjectURL(file);
  return new Promise((resolve) => {
    const image = new Image();
    image.onload = () => {
      resolve({ width: image.naturalWidth, height: image.naturalHeight });
      URL.revokeObjectURL(url);
    };
    image.onerror = () => {
      resolve(null);
      URL.revokeObjectURL(url);
    };
    image.src = url;
  });
}

/**
 * Spec §5, checked before uploading (the server checks the bytes again): an image type, at
 * most 10 MB, it must load, width plus height at most 10000 and no more than 20:1.
 */
export async function checkImageFile(file: File): Promise<ImageProblem | null> {
  if (!file.type.startsWith("image/")) return "drafts.invalidImageType";
  if (file.size > IMAGE_MAX_BYTES) return "drafts.imageTooBig";
  const size = await loadDimensions(file);
  if (!size || size.width < 1 || size.height < 1) return "drafts.invalidImageType";
  if (size.width + size.height > IMAGE_MAX_DIMENSION_SUM) return "drafts.invalidImageType";
  const ratio = Math.max(size.width, size.height) / Math.min(size.width, size.height);
  return ratio > IMAGE_MAX_ASPECT_RATIO ? "drafts.invalidImageType" : null;
}
