/*
 * Upload checks decided by the file's bytes, never by its name or declared type:
 * the format (JPEG, PNG, WebP, GIF), then the dimensions read from the image's own header,
 * plus a check that the file is complete (a truncated image does not load).
 */
import { IMAGE_MAX_ASPECT_RATIO, IMAGE_MAX_DIMENSION_SUM } from "../contract/limits.ts";

export type ImageInfo = { type: "png" | "jpg" | "webp" | "gif"; contentType: string; width: number; height: number };

const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

function png(b: Uint8Array): ImageInfo | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (b.length < 45 || !signature.every((x, i) => b[i] === x) || ascii(b, 12, 4) !== "IHDR") return null;
  if (ascii(b, b.length - 8, 4) !== "IEND") return null; // truncated
  return { type: "png", contentType: "image/png", width: u32be(b, 16), height: u32be(b, 20) };
}

function jpeg(b: Uint8Array): ImageInfo | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  let i = 2;
  let size: { width: number; height: number } | null = null;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) { // fill byte
      i += 1;
      continue;
    }
    const length = u16be(b, i + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame && i + 9 <= b.length) size = { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    if (marker === 0xda) { // start of scan: image data follows, must end with EOI
      const tail = b.subarray(Math.max(0, b.length - 64));
      const hasEnd = tail.some((x, k) => x === 0xff && tail[k + 1] === 0xd9);
      return size && hasEnd ? { type: "jpg", contentType: "image/jpeg", ...size } : null;
    }
    i += 2 + length;
  }
  return null;
}

function gif(b: Uint8Array): ImageInfo | null {
  const head = ascii(b, 0, 6);
  if (b.length < 14 || (head !== "GIF87a" && head !== "GIF89a")) return null;
  if (b[b.length - 1] !== 0x3b) return null; // trailer
  return { type: "gif", contentType: "image/gif", width: u16le(b, 6), height: u16le(b, 8) };
}

function webp(b: Uint8Array): ImageInfo | null {
  if (b.length < 30 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WEBP") return null;
  if (u32be(new Uint8Array([b[7], b[6], b[5], b[4]]), 0) + 8 > b.length) return null; // truncated
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8 ") {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { type: "webp", contentType: "image/webp", width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    if (b[20] !== 0x2f) return null;
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return { type: "webp", contentType: "image/webp", width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    return { type: "webp", contentType: "image/webp", width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  }
  return null;
}

/** The image's format and size, or null when the bytes are not a complete supported image. */
export function inspectImage(bytes: Uint8Array): ImageInfo | null {
  return png(bytes) ?? jpeg(bytes) ?? webp(bytes) ?? gif(bytes);
}

/** Spec §5: width + height ≤ 10000 and aspect ratio ≤ 20:1. */
export function acceptableDimensions({ width, height }: { width: number; height: number }) {
  if (width < 1 || height < 1) return false;
  if (width + height > IMAGE_MAX_DIMENSION_SUM) return false;
  return Math.max(width, height) / Math.min(width, height) <= IMAGE_MAX_ASPECT_RATIO;
}
